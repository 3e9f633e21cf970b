import { TLS_SUCCESS_RESULT } from '@sendwell/contracts';
import { createHash } from 'node:crypto';
import { getDomain } from 'tldts';
import type { AggregateRecord, AggregateReport } from '../reports/aggregate/types.js';
import { isDomainOrBelow, normaliseDomain } from '../reports/domain-names.js';
import type { TlsReport } from '../reports/tls-rpt/types.js';

/**
 * What one report adds to the daily tables, summed in memory first: one upsert row per day and
 * dimensions, so a statement never touches a row twice and rows go in one (sorted) order, which keeps
 * two workers storing reports of the same domain and day from deadlocking.
 */

export interface DailyRecordRow {
  day: string;
  /** SHA-1 of the dimensions, hex: the row's identity within its day (stored as bytea). */
  key: string;
  sourceIp: string;
  headerFrom: string;
  envelopeFrom: string;
  spfDomain: string;
  spfResult: string;
  dkimDomain: string;
  dkimSelector: string;
  dkimResult: string;
  spfAligned: boolean;
  dkimAligned: boolean;
  disposition: string;
  override: string;
  messages: number;
}

export interface TlsDailyRow {
  day: string;
  policyType: string;
  policyDomain: string;
  mxHost: string;
  resultType: string;
  sessions: number;
}

/** NUL cannot occur in XML text (XML 1.0 §2.2) nor in a Postgres text value, so it separates safely. */
const SEPARATOR = '\u0000';

export function utcDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/** A report is filed under the UTC day of its period's midpoint (a daily report's own day, whatever its sender's time zone). */
export function periodDay(begin: Date, end: Date): string {
  return utcDay(new Date((begin.getTime() + end.getTime()) / 2));
}

function organisational(domain: string): string {
  return getDomain(domain) ?? domain;
}

/** Relaxed alignment (RFC 7489 §3.1.1): the same organisational domain. */
function aligned(domain: string | null, headerFrom: string | null): boolean {
  if (!domain || !headerFrom) return false;
  return domain === headerFrom || organisational(domain) === organisational(headerFrom);
}

/** The DKIM result that says most: an aligned pass, else any pass, else the first. */
function bestDkim(record: AggregateRecord): AggregateRecord['dkimResults'][number] | undefined {
  const passes = record.dkimResults.filter((r) => r.result === 'pass');
  return passes.find((r) => aligned(r.domain, record.headerFrom)) ?? passes[0] ?? record.dkimResults[0];
}

function recordRow(day: string, record: AggregateRecord): DailyRecordRow {
  const spf = record.spfResults[0];
  const dkim = bestDkim(record);
  const dims = {
    sourceIp: record.sourceIp,
    headerFrom: record.headerFrom ?? '',
    envelopeFrom: record.envelopeFrom ?? '',
    spfDomain: spf?.domain ?? '',
    spfResult: spf?.result ?? '',
    dkimDomain: dkim?.domain ?? '',
    dkimSelector: dkim?.selector ?? '',
    dkimResult: dkim ? (dkim.result ?? '') : 'none',
    spfAligned: record.spf === 'pass',
    dkimAligned: record.dkim === 'pass',
    disposition: record.disposition ?? '',
    override: record.reasons[0]?.type ?? '',
  };
  const key = createHash('sha1')
    .update(
      [dims.sourceIp, dims.headerFrom, dims.envelopeFrom, dims.spfDomain, dims.spfResult, dims.dkimDomain, dims.dkimSelector, dims.dkimResult, String(dims.spfAligned), String(dims.dkimAligned), dims.disposition, dims.override].join(SEPARATOR),
    )
    .digest('hex');
  return { day, key, ...dims, messages: record.count };
}

/** Adds a report's records to `into` (keyed by day and dimensions). */
export function addRecordRows(into: Map<string, DailyRecordRow>, report: Pick<AggregateReport, 'period' | 'records'>): void {
  const day = periodDay(report.period.begin, report.period.end);
  for (const record of report.records) {
    const row = recordRow(day, record);
    const id = `${day}/${row.key}`;
    const existing = into.get(id);
    if (existing) existing.messages += row.messages;
    else into.set(id, row);
  }
}

function sortedValues<T>(rows: Map<string, T>): T[] {
  return [...rows.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, row]) => row);
}

/**
 * JSON as UTF-8 bytes in a buffer of their own. Rows go to Postgres this way (json_to_recordset in
 * ingest-report-file.ts): one statement text whatever the number of rows, so it is prepared once, and
 * pg sends a Buffer parameter as is, which a json parameter takes as its text. From a reader thread
 * the buffer is moved, not copied; 200,000 row objects would be cloned field by field, and even one
 * 20 MB string took 265 ms to clone on the receiving event loop.
 */
export function jsonBytes(value: unknown): Buffer {
  const bytes = new TextEncoder().encode(JSON.stringify(value));
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** Daily rows in key order, as jsonBytes. */
export function recordRowsJson(rows: Map<string, DailyRecordRow>): Buffer {
  return jsonBytes(sortedValues(rows));
}

/** The distinct source addresses of the rows, sorted, as jsonBytes. */
export function sourceIpsJson(rows: Map<string, DailyRecordRow>): Buffer {
  return jsonBytes([...new Set([...rows.values()].map((row) => row.sourceIp))].sort());
}

const [OPEN, COMMA, CLOSE] = ['[', ',', ']'].map((text) => Buffer.from(text)) as [Buffer, Buffer, Buffer];

/** Joins JSON arrays (`[...]` as JSON.stringify writes them) into one without parsing them. */
export function concatJsonArrays(arrays: Uint8Array[]): Buffer {
  const parts: Uint8Array[] = [OPEN];
  for (const array of arrays) {
    const items = array.subarray(1, -1);
    if (items.length === 0) continue;
    if (parts.length > 1) parts.push(COMMA);
    parts.push(items);
  }
  parts.push(CLOSE);
  return Buffer.concat(parts);
}

/** The report's policies about `domain` or a name below it (a sender may report other domains in the same file). */
export function policiesFor(report: TlsReport, domain: string): TlsReport['policies'] {
  const owner = normaliseDomain(domain);
  return report.policies.filter((policy) => isDomainOrBelow(policy.domain, owner));
}

/** Adds a TLS report's sessions: per policy one `success` row (no MX) and one row per failure detail. */
export function addTlsRows(into: Map<string, TlsDailyRow>, report: TlsReport, domain: string): void {
  const day = periodDay(report.period.start, report.period.end);
  const add = (row: TlsDailyRow) => {
    if (row.sessions <= 0) return;
    const id = [row.day, row.policyType, row.policyDomain, row.mxHost, row.resultType].join(SEPARATOR);
    const existing = into.get(id);
    if (existing) existing.sessions += row.sessions;
    else into.set(id, row);
  };
  for (const policy of policiesFor(report, domain)) {
    const base = { day, policyType: policy.type, policyDomain: policy.domain };
    add({ ...base, mxHost: '', resultType: TLS_SUCCESS_RESULT, sessions: policy.successful });
    for (const failure of policy.failures) add({ ...base, mxHost: failure.receivingMx ?? '', resultType: failure.resultType, sessions: failure.count });
  }
}

export function tlsRowsJson(rows: Map<string, TlsDailyRow>): Buffer {
  return jsonBytes(sortedValues(rows));
}
