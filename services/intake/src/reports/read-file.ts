/**
 * A received file read for storing: readContent's reports with what ingest needs already computed,
 * so the reader thread (read-thread.ts) hands back a few strings and buffers per report, not every
 * parsed record. For an aggregate report that is its header and totals, its daily rows (a hash and a
 * public-suffix lookup a record, CPU work as much as the parse) and its source, gzip'd.
 */
import { gzipSync } from 'node:zlib';
import { addRecordRows, recordRowsJson, sourceIpsJson, type DailyRecordRow } from '../storage/daily-rows.js';
import type { AggregateHeader } from './aggregate/types.js';
import type { FailureReport } from './failure/types.js';
import { readContent } from './read-report-content.js';
import type { TlsReport } from './tls-rpt/types.js';

export interface ReadAggregate {
  report: AggregateHeader;
  records: number;
  /** Messages over all its records. */
  messages: number;
  /** Its rows of dmarc_records_daily, summed and sorted, as JSON bytes (daily-rows.ts recordRowsJson). */
  rowsJson: Buffer;
  /** Its distinct source addresses, sorted, as JSON bytes (sourceIpsJson). */
  sourceIpsJson: Buffer;
  /** The decompressed document, gzip'd, kept for "view source". */
  sourceGz: Buffer;
}

export interface ReadTls {
  report: TlsReport;
  sourceGz: Buffer;
}

export interface ReadFile {
  aggregate: ReadAggregate[];
  tls: ReadTls[];
  failure: FailureReport | null;
}

/** What the bytes hold (readContent), ready to store; throws readContent's refusals. */
export function readFile(bytes: Uint8Array, contentType: string | null): ReadFile {
  const content = readContent(bytes, contentType);
  return {
    aggregate: content.aggregate.map(({ report, source }) => {
      const rows = new Map<string, DailyRecordRow>();
      addRecordRows(rows, report);
      const { records, ...header } = report;
      return {
        report: header,
        records: records.length,
        messages: records.reduce((sum, record) => sum + record.count, 0),
        rowsJson: recordRowsJson(rows),
        sourceIpsJson: sourceIpsJson(rows),
        sourceGz: gzipSync(source),
      };
    }),
    tls: content.tls.map(({ report, source }) => ({ report, sourceGz: gzipSync(source) })),
    failure: content.failure,
  };
}

/** The ArrayBuffers of `file` that nothing else shares (not slices of Node's buffer pool): moved, not copied, to another thread. */
export function transferableBuffers(file: ReadFile): ArrayBuffer[] {
  const views = [...file.aggregate.flatMap((read) => [read.rowsJson, read.sourceIpsJson, read.sourceGz]), ...file.tls.map((read) => read.sourceGz)];
  const owned = views.filter((view) => view.byteOffset === 0 && view.byteLength === view.buffer.byteLength).map((view) => view.buffer);
  return [...new Set(owned)].filter((buffer): buffer is ArrayBuffer => buffer instanceof ArrayBuffer);
}
