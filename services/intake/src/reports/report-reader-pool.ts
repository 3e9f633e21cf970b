/**
 * Reports read on worker threads (read-thread.ts), a fixed number at a time: the intake's SMTP and
 * HTTP share one event loop, which a 200,000-record report would otherwise hold for half a minute.
 */
import { ThreadPool } from '@sendwell/server-kit';
import type { ReadFile } from './read-file.js';
import type { ReadRequest, ReadResponse } from './read-thread.js';
import { ReportRefusal } from './refusal.js';

/** Well past the largest report the caps allow (200,000 records, about 25 s): only a runaway read is stopped. */
export const READ_TIMEOUT_MS = 120_000;

/** Buffers cross the thread boundary as Uint8Array (whatever ReadFile's types say): a Buffer again, over the same bytes. */
function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

export class ReportReaderPool {
  private readonly threads: ThreadPool<ReadRequest, ReadResponse>;

  constructor(size: number, options: { timeoutMs?: number } = {}) {
    // `read-thread.js` beside the bundle when compiled (the build emits it); the .ts from source.
    this.threads = new ThreadPool({
      size,
      compiled: new URL('./read-thread.js', import.meta.url),
      source: new URL('./read-thread.ts', import.meta.url),
      name: 'report reader',
      taskTimeoutMs: options.timeoutMs ?? READ_TIMEOUT_MS,
    });
  }

  /** readFile on a thread: the same answer, or the same ReportRefusal (code and message). */
  async read(bytes: Uint8Array, contentType: string | null): Promise<ReadFile> {
    const response = await this.threads.run({ bytes, contentType });
    if ('refusal' in response) throw new ReportRefusal(response.refusal.code, response.refusal.message);
    const { aggregate, tls, failure } = response.file;
    return {
      aggregate: aggregate.map((read) => ({ ...read, rowsJson: asBuffer(read.rowsJson), sourceIpsJson: asBuffer(read.sourceIpsJson), sourceGz: asBuffer(read.sourceGz) })),
      tls: tls.map((read) => ({ ...read, sourceGz: asBuffer(read.sourceGz) })),
      failure,
    };
  }

  close(): Promise<void> {
    return this.threads.close();
  }
}

let shared: ReportReaderPool | undefined;

/**
 * For callers given no pool (tests, one-off scripts): one pool per process, started on first use.
 * Nobody closes it; its idle threads do not keep the process alive. The service passes its own (Deps).
 */
export function sharedReportReader(): ReportReaderPool {
  shared ??= new ReportReaderPool(2);
  return shared;
}
