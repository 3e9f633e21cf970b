/**
 * PDFs rendered on worker threads, so a burst of reports never holds the API's event loop: a fixed
 * number of threads, started on first use, each given one document at a time; a thread that dies
 * fails its document (the job retries) and is replaced (ThreadPool).
 */
import type { ReportDocument } from '@sendwell/contracts';
import { ThreadPool } from '@sendwell/server-kit';
import type { RenderRequest, RenderResponse } from './pdf-thread.js';

export class PdfRenderPool {
  private readonly threads: ThreadPool<RenderRequest, RenderResponse>;
  private nextId = 1;

  constructor(size: number) {
    // `pdf-thread.js` beside the bundle when compiled (the build emits it); the .ts from source.
    this.threads = new ThreadPool({
      size,
      compiled: new URL('./pdf-thread.js', import.meta.url),
      source: new URL('./pdf-thread.ts', import.meta.url),
      name: 'PDF render',
    });
  }

  async render(document: ReportDocument, options: { appUrl?: string } = {}): Promise<Buffer> {
    const { pdf } = await this.threads.run({ id: this.nextId++, document, ...(options.appUrl === undefined ? {} : { appUrl: options.appUrl }) });
    // Bytes cross the thread boundary as a Uint8Array.
    return Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength);
  }

  close(): Promise<void> {
    return this.threads.close();
  }
}
