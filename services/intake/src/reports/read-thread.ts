/**
 * A report reading thread: reads each file it is sent (readContent) and posts the reports back, so a
 * large or hostile report never holds the intake's event loop (its SMTP conversations and requests).
 * An aggregate report's daily rows are summed here too: a hash and a public-suffix lookup a record,
 * about 1 s for 20,000 records, CPU work as much as the parse. A refusal is an answer, not a failure:
 * its code and message go back for the pool to rethrow.
 */
import { parentPort } from 'node:worker_threads';
import { addRecordRows, type DailyRecordRow } from '../storage/daily-rows.js';
import { readContent, type ReportContent } from './read-report-content.js';
import { ReportRefusal, type RefusalCode } from './refusal.js';

export interface ReadRequest {
  bytes: Uint8Array;
  contentType: string | null;
}
export type ReadResponse = { content: ReportContent; recordRows: Map<string, DailyRecordRow>[] } | { refusal: { code: RefusalCode; message: string } } | { error: string };

parentPort?.on('message', (request: ReadRequest) => {
  let response: ReadResponse;
  try {
    const content = readContent(request.bytes, request.contentType);
    const recordRows = content.aggregate.map(({ report }) => {
      const rows = new Map<string, DailyRecordRow>();
      addRecordRows(rows, report);
      return rows;
    });
    response = { content, recordRows };
  } catch (error) {
    if (error instanceof ReportRefusal) response = { refusal: { code: error.code, message: error.message } };
    else response = { error: error instanceof Error ? error.message : String(error) };
  }
  parentPort!.postMessage(response);
});
