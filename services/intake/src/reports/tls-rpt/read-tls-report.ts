/**
 * Reads one SMTP TLS report (RFC 8460), as posted over HTTPS (§3: `application/tlsrpt+json`, or
 * `application/tlsrpt+gzip`) or carried as a mail attachment once the MIME layer has found it.
 *
 * Formats: JSON, gzip-compressed when the content type says so or the body starts with the gzip
 * magic (some senders label gzip as JSON). The shape is RFC 8460 §4.4, validated with zod and
 * normalised to `TlsReport`; what real senders do beyond the RFC is tolerated: extra fields
 * (dropped), quoted counts, `mx-host` and `policy-string` as one string, Google's older MX-host
 * objects, and `failure-error-code` (the RFC's own example) for `failure-reason-code`.
 *
 * Caps, before any parsing: the body size (`inputBytes`), the decompressed size and ratio
 * (gunzipCapped), the nesting depth (`jsonDepth`, before JSON.parse), then the number of policies
 * and failure details (`tlsPolicies`, `tlsFailureDetails`) before validation. Anything wrong is a
 * `ReportRefusal`; nothing else is thrown.
 *
 * Nothing is redacted: a TLS report names servers and IP addresses, never a person.
 */
import { gunzipCapped, isGzip } from '../decompress.js';
import { REPORT_LIMITS, type ReportLimits } from '../limits.js';
import { refuse } from '../refusal.js';
import { jsonDepthExceeds } from './json-depth.js';
import { tlsReportSchema } from './tls-report.schema.js';
import type { TlsReport } from './types.js';

export function readTlsReport(body: Uint8Array, contentType: string, limits: ReportLimits = REPORT_LIMITS): TlsReport {
  if (body.length > limits.inputBytes) {
    refuse('TOO_LARGE', `The TLS report is larger than ${Math.floor(limits.inputBytes / 1024 / 1024)} MB, more than any real report.`);
  }
  const gzipped = mediaType(contentType) === 'application/tlsrpt+gzip' || isGzip(body);
  const json = gzipped ? gunzipCapped(body) : body;
  if (json.length > limits.decompressedBytes) {
    refuse('DECOMPRESSED_TOO_LARGE', 'The TLS report is larger than any real report.');
  }
  const parsed = parseJson(new TextDecoder().decode(json), limits);
  checkCounts(parsed, limits);

  const result = tlsReportSchema.safeParse(parsed);
  if (!result.success) {
    const issue = result.error.issues[0];
    const field = issue?.path.length ? issue.path.map(String).join('.') : 'document';
    refuse('NOT_A_TLS_REPORT', `This is not an RFC 8460 TLS report: ${field} ${issue?.message ?? 'is invalid'}.`);
  }
  return result.data;
}

function mediaType(contentType: string): string {
  const semicolon = contentType.indexOf(';');
  return (semicolon === -1 ? contentType : contentType.slice(0, semicolon)).trim().toLowerCase();
}

function parseJson(json: string, limits: ReportLimits): unknown {
  if (jsonDepthExceeds(json, limits.jsonDepth)) {
    refuse('MALFORMED_JSON', `The TLS report nests deeper than ${limits.jsonDepth} levels; a real one is 6 deep.`);
  }
  try {
    // A byte-order mark is not JSON (RFC 8259 §8.1) but some senders write one.
    return JSON.parse(json.startsWith('\uFEFF') ? json.slice(1) : json) as unknown;
  } catch (error) {
    // SyntaxError for bad JSON; RangeError if V8 still runs out of stack.
    if (error instanceof SyntaxError || error instanceof RangeError) refuse('MALFORMED_JSON', 'The TLS report is not valid JSON.');
    throw error;
  }
}

/** Counted before validation, so a report with a million failure details costs no zod work. */
function checkCounts(parsed: unknown, limits: ReportLimits): void {
  const policies = field(parsed, 'policies');
  if (!Array.isArray(policies)) return; // validation names the missing field
  if (policies.length > limits.tlsPolicies) {
    refuse('TOO_MANY_RECORDS', `The TLS report has more than ${limits.tlsPolicies} policies.`);
  }
  let details = 0;
  for (const policy of policies) {
    const failures = field(policy, 'failure-details');
    if (Array.isArray(failures)) details += failures.length;
  }
  if (details > limits.tlsFailureDetails) {
    refuse('TOO_MANY_RECORDS', `The TLS report has more than ${limits.tlsFailureDetails} failure details.`);
  }
}

function field(value: unknown, name: string): unknown {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>)[name] : undefined;
}
