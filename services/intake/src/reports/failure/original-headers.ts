import { type HeaderField, firstField } from '../mime/header-fields.js';
import { domainOfAddress, hashMessageId } from './redact.js';
import type { FailureReport } from './types.js';

/** What is kept of the failed message: its sender domains and a hash of its Message-ID, never Subject or body. */
export function summariseOriginal(headers: HeaderField[]): FailureReport['original'] {
  return {
    fromDomain: domainOfAddress(firstField(headers, 'from')),
    returnPathDomain: domainOfAddress(firstField(headers, 'return-path')),
    messageIdSha256: hashMessageId(firstField(headers, 'message-id')),
  };
}

/** A header block's own leaf types: RFC 6591 §3.1 allows the whole message or only its headers. */
export const ORIGINAL_MESSAGE_TYPES = new Set(['message/rfc822', 'text/rfc822-headers', 'message/rfc822-headers']);

/** Pulls the values of `spf=`, `dkim=` and `dmarc=` from Authentication-Results (RFC 8601 §2.2). */
export function resultsOf(authenticationResults: string[]): FailureReport['results'] {
  const results: FailureReport['results'] = { spf: null, dkim: null, dmarc: null };
  for (const field of authenticationResults) {
    for (const match of field.matchAll(/\b(spf|dkim|dmarc)=([a-z]+)/gi)) {
      const method = match[1]!.toLowerCase() as keyof FailureReport['results'];
      results[method] ??= match[2]!.toLowerCase();
    }
  }
  return results;
}

/** RFC 2822 / RFC 3339 dates as receivers write them; short values only, so Date's parser stays cheap. */
export function parseDate(value: string | null): Date | null {
  if (!value || value.length > 100) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}
