/**
 * A report reading thread: reads each file it is sent (readFile) and posts back what storing it
 * needs, so a large or hostile report never holds the intake's event loop (its SMTP conversations and
 * requests). A refusal is an answer, not a failure: its code and message go back for the pool to rethrow.
 */
import { parentPort } from 'node:worker_threads';
import { readFile, transferableBuffers, type ReadFile } from './read-file.js';
import { ReportRefusal, type RefusalCode } from './refusal.js';

export interface ReadRequest {
  bytes: Uint8Array;
  contentType: string | null;
}
export type ReadResponse = { file: ReadFile } | { refusal: { code: RefusalCode; message: string } } | { error: string };

parentPort?.on('message', (request: ReadRequest) => {
  let response: ReadResponse;
  let transfer: ArrayBuffer[] = [];
  try {
    const file = readFile(request.bytes, request.contentType);
    response = { file };
    transfer = transferableBuffers(file);
  } catch (error) {
    if (error instanceof ReportRefusal) response = { refusal: { code: error.code, message: error.message } };
    else response = { error: error instanceof Error ? error.message : String(error) };
  }
  parentPort!.postMessage(response, transfer);
});
