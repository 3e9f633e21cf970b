/**
 * PDFs rendered on worker threads, so a burst of reports never holds the API's event loop: a fixed
 * number of threads, started on first use, each given one document at a time; a thread that dies
 * fails its document (the job retries) and is replaced.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { ReportDocument } from '@sendwell/contracts';
import type { RenderRequest, RenderResponse } from './pdf-thread.js';

interface Pending {
  request: RenderRequest;
  resolve(pdf: Buffer): void;
  reject(error: Error): void;
}

/**
 * A new rendering thread: `pdf-thread.js` beside the bundle when compiled; from source (tests,
 * `pnpm dev`), a thread that registers tsx's loader and then imports the TypeScript file.
 */
function startThread(): Worker {
  const compiled = new URL('./pdf-thread.js', import.meta.url);
  if (existsSync(fileURLToPath(compiled))) return new Worker(compiled);
  // tsx's ESM API by path: its package exports give `require` the CommonJS build, whose register() misplaces its loader.
  const tsx = pathToFileURL(join(dirname(createRequire(import.meta.url).resolve('tsx/package.json')), 'dist/esm/api/index.mjs')).href;
  const source = new URL('./pdf-thread.ts', import.meta.url).href;
  return new Worker(`import(${JSON.stringify(tsx)}).then(({ register }) => { register(); return import(${JSON.stringify(source)}); });`, { eval: true });
}

export class PdfRenderPool {
  private readonly idle: Worker[] = [];
  private readonly busy = new Map<Worker, Pending>();
  private readonly queue: Pending[] = [];
  private started = 0;
  private nextId = 1;
  private closed = false;

  constructor(private readonly size: number) {}

  render(document: ReportDocument, options: { appUrl?: string } = {}): Promise<Buffer> {
    if (this.closed) return Promise.reject(new Error('the PDF render pool is closed'));
    return new Promise((resolve, reject) => {
      this.queue.push({ request: { id: this.nextId++, document, ...(options.appUrl === undefined ? {} : { appUrl: options.appUrl }) }, resolve, reject });
      this.dispatch();
    });
  }

  private dispatch(): void {
    while (this.queue.length > 0) {
      const worker = this.idle.pop() ?? (this.started < this.size ? this.spawn() : undefined);
      if (!worker) return;
      const job = this.queue.shift()!;
      this.busy.set(worker, job);
      worker.postMessage(job.request);
    }
  }

  private spawn(): Worker {
    const worker = startThread();
    this.started += 1;
    worker.on('message', (response: RenderResponse) => {
      const job = this.busy.get(worker);
      this.busy.delete(worker);
      if (job) {
        if ('error' in response) job.reject(new Error(response.error));
        else job.resolve(Buffer.from(response.pdf.buffer, response.pdf.byteOffset, response.pdf.byteLength));
      }
      this.idle.push(worker);
      this.dispatch();
    });
    let gone = false;
    const lost = (error: Error) => {
      // 'error' is followed by 'exit': count the thread out once.
      if (gone) return;
      gone = true;
      const job = this.busy.get(worker);
      this.busy.delete(worker);
      const at = this.idle.indexOf(worker);
      if (at >= 0) this.idle.splice(at, 1);
      this.started -= 1;
      job?.reject(error);
      if (!this.closed) this.dispatch();
    };
    worker.on('error', lost);
    worker.on('exit', (code) => lost(new Error(`PDF render thread exited with code ${code}`)));
    return worker;
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0)) job.reject(new Error('the PDF render pool is closed'));
    await Promise.all([...this.idle, ...this.busy.keys()].map((w) => w.terminate()));
  }
}
