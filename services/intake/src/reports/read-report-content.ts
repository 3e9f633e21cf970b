/**
 * What a received file or message holds, read in full: synchronous CPU work (about 2.3 s for a
 * 20,000-record aggregate report), so the service runs it on a thread (read-thread.ts via
 * ReportReaderPool); it is kept pure so the thread and the tests call the same code.
 */
import { parseAggregateReport } from './aggregate/parse-aggregate-report.js';
import type { AggregateReport } from './aggregate/types.js';
import { findReportFiles, type FoundReportFiles } from './containers/unwrap-report-files.js';
import { sniff } from './containers/sniff.js';
import { readFailureReport } from './failure/read-failure-report.js';
import type { FailureReport } from './failure/types.js';
import { ReportRefusal } from './refusal.js';
import { readTlsReport } from './tls-rpt/read-tls-report.js';
import type { TlsReport } from './tls-rpt/types.js';

export interface ReadReport<R> {
  report: R;
  /** The decompressed document, kept (gzip) for "view source". */
  source: Buffer;
}

export interface ReportContent {
  aggregate: ReadReport<AggregateReport>[];
  tls: ReadReport<TlsReport>[];
  failure: FailureReport | null;
}

const NOTHING_READABLE =
  'No report was found: expected a DMARC aggregate report (XML, gzip or zip), an SMTP TLS report (JSON or gzip), or a DMARC failure report, as a file or in an email.';

/**
 * What the bytes hold. Aggregate and TLS documents are looked for first (in containers of any kind);
 * only when there are none is the input read as a failure report, which is a message of its own.
 * A container refusal (a bomb, a damaged zip) is what is reported when it is not a failure report either.
 */
export function readContent(bytes: Uint8Array, contentType: string | null): ReportContent {
  let found: FoundReportFiles | undefined;
  let containerRefusal: ReportRefusal | undefined;
  try {
    found = findReportFiles(bytes, contentType);
  } catch (error) {
    if (!(error instanceof ReportRefusal)) throw error;
    containerRefusal = error;
  }
  if (found && found.xml.length + found.json.length > 0) {
    return {
      aggregate: found.xml.map((file) => ({ report: parseAggregateReport(file.bytes), source: file.bytes })),
      tls: found.json.map((file) => ({ report: readTlsReport(file.bytes, 'application/tlsrpt+json'), source: file.bytes })),
      failure: null,
    };
  }
  if (sniff(bytes) === 'mime') {
    let failure: FailureReport | undefined;
    try {
      failure = readFailureReport(bytes);
    } catch (error) {
      if (!(error instanceof ReportRefusal)) throw error;
    }
    if (failure) return { aggregate: [], tls: [], failure };
  }
  throw containerRefusal ?? new ReportRefusal('NO_REPORT_FOUND', NOTHING_READABLE);
}
