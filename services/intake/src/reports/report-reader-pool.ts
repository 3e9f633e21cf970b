/**
 * Reports read on worker threads (read-thread.ts), a fixed number at a time: the intake's SMTP and
 * HTTP share one event loop, which a 200,000-record report would otherwise hold for half a minute.
 */
import { ThreadPool } from '@sendwell/server-kit';
import type { DailyRecordRow } from '../storage/daily-rows.js';
import type { AggregateReport } from './aggregate/types.js';
import type { FailureReport } from './failure/types.js';
import type { ReadReport } from './read-report-content.js';
import type { ReadRequest, ReadResponse } from './read-thread.js';
import { ReportRefusal } from './refusal.js';
import type { TlsReport } from './tls-rpt/types.js';

/** Well past the largest report the caps allow (200,000 records, about 25 s): only a runaway read is stopped. */
export const READ_TIMEOUT_MS = 120_000;

/** Buffers cross the thread boundary as Uint8Array: a Buffer again, over the same bytes. */
function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

function withBufferSource<R>(read: ReadReport<R>): ReadReport<R> {
  return { report: read.report, source: asBuffer(read.source) };
}

export interface ReadAggregate extends ReadReport<AggregateReport> {
  /** What the report adds to dmarc_records_daily (addRecordRows), keyed as addRecordRows keys them. */
  rows: Map<string, DailyRecordRow>;
}

/** readContent's reports, an aggregate report with its daily rows. */
export interface ReadFile {
  aggregate: ReadAggregate[];
  tls: ReadReport<TlsReport>[];
  failure: FailureReport | null;
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

  /** readContent on a thread: the same reports, or the same ReportRefusal (code and message). */
  async read(bytes: Uint8Array, contentType: string | null): Promise<ReadFile> {
    const response = await this.threads.run({ bytes, contentType });
    if ('refusal' in response) throw new ReportRefusal(response.refusal.code, response.refusal.message);
    const { content, recordRows } = response;
    return {
      aggregate: content.aggregate.map((read, at) => {
        const rows = recordRows[at] ?? new Map<string, DailyRecordRow>();
        for (const row of rows.values()) row.key = asBuffer(row.key);
        return { ...withBufferSource(read), rows };
      }),
      tls: content.tls.map(withBufferSource),
      failure: content.failure,
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
