/**
 * A PDF rendering thread: renders each document it is sent and posts the bytes back. Rendering is
 * synchronous CPU work (57 ms for a full report); here it never holds the service's event loop.
 */
import { parentPort } from 'node:worker_threads';
import type { ReportDocument } from '@sendwell/contracts';
import { renderPdf } from './render-pdf.js';

export interface RenderRequest {
  id: number;
  document: ReportDocument;
  appUrl?: string;
}
export type RenderResponse = { id: number; pdf: Uint8Array } | { id: number; error: string };

parentPort?.on('message', (request: RenderRequest) => {
  renderPdf(request.document, request.appUrl === undefined ? {} : { appUrl: request.appUrl }).then(
    (pdf) => {
      const bytes = new Uint8Array(pdf.buffer, pdf.byteOffset, pdf.byteLength);
      parentPort!.postMessage({ id: request.id, pdf: bytes } satisfies RenderResponse);
    },
    (error: unknown) => parentPort!.postMessage({ id: request.id, error: error instanceof Error ? error.message : String(error) } satisfies RenderResponse),
  );
});
