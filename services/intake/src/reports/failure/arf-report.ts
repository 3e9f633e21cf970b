import { refuse } from '../refusal.js';
import { allFields, firstField, parseHeaderFields } from '../mime/header-fields.js';
import { type MimeLeaf, readEntityHeaders } from '../mime/read-mime-leaves.js';
import { leafText } from './leaf-text.js';
import { ORIGINAL_MESSAGE_TYPES, parseDate, resultsOf, summariseOriginal } from './original-headers.js';
import { domainOfAddress, isDomainName, keep } from './redact.js';
import type { FailureReport } from './types.js';

/**
 * An RFC 6591 authentication failure report: the fields of the message/feedback-report part
 * (RFC 5965 §3.5, RFC 6591 §3.1, RFC 7489 §7.3), then the original headers from the
 * message/rfc822 or text/rfc822-headers part. Null when there is no feedback-report part.
 */
export function readArfReport(leaves: MimeLeaf[]): FailureReport | null {
  const feedback = leaves.find((leaf) => leaf.type === 'message/feedback-report');
  if (!feedback) return null;
  const fields = parseHeaderFields(leafText(feedback));
  const feedbackType = firstField(fields, 'feedback-type')?.toLowerCase();
  if (feedbackType !== 'auth-failure') {
    refuse('NOT_A_FAILURE_REPORT', `This feedback report is of type "${(feedbackType ?? 'none').slice(0, 40)}", not an authentication failure report (RFC 6591).`);
  }
  const originalLeaf = leaves.find((leaf) => ORIGINAL_MESSAGE_TYPES.has(leaf.type));
  const original = summariseOriginal(originalLeaf ? readEntityHeaders(originalLeaf.body).headers : []);
  const authenticationResults = allFields(fields, 'authentication-results');
  const reportedDomain = firstField(fields, 'reported-domain')?.toLowerCase() ?? null;

  return {
    format: 'arf',
    authFailure: keep(firstField(fields, 'auth-failure')?.toLowerCase() ?? null),
    reportedDomain: reportedDomain && isDomainName(reportedDomain) ? reportedDomain : original.fromDomain,
    sourceIp: keep(firstField(fields, 'source-ip')),
    // Received-Date is the name RFC 6591's own examples use for RFC 5965's Arrival-Date.
    arrivalDate: parseDate(firstField(fields, 'arrival-date') ?? firstField(fields, 'received-date')),
    originalMailFrom: keep(firstField(fields, 'original-mail-from')),
    originalRcptTo: allFields(fields, 'original-rcpt-to').map((value) => keep(value)!),
    authenticationResults: authenticationResults.map((value) => keep(value)!),
    dkim: {
      domain: domainOfAddress(firstField(fields, 'dkim-domain')),
      selector: keep(firstField(fields, 'dkim-selector')),
      identity: keep(firstField(fields, 'dkim-identity')),
    },
    spfDns: allFields(fields, 'spf-dns').map((value) => keep(value)!),
    deliveryResult: keep(firstField(fields, 'delivery-result')?.toLowerCase() ?? null),
    results: resultsOf(authenticationResults),
    alignment: alignmentOf(firstField(fields, 'identity-alignment')),
    reportedUris: allFields(fields, 'reported-uri').map((value) => keep(value)!),
    original,
  };
}

/** RFC 7489 §7.3: Identity-Alignment lists the identities that aligned, or says `none`. */
function alignmentOf(value: string | null): FailureReport['alignment'] {
  if (value === null) return { spf: null, dkim: null };
  const aligned = value.toLowerCase().split(',').map((identity) => identity.trim());
  return { spf: aligned.includes('spf') ? 'pass' : 'fail', dkim: aligned.includes('dkim') ? 'pass' : 'fail' };
}
