/**
 * Reads one DMARC failure report (RFC 7489 §7.3) from a whole mail message, and keeps it redacted.
 *
 * Formats: RFC 6591 ARF, a multipart/report (report-type=feedback-report) with a
 * message/feedback-report part (`Feedback-Type: auth-failure`) and the original message as
 * message/rfc822 or only its headers as text/rfc822-headers; and the plain-text report some
 * receivers send (OpenDMARC's `Sender Domain:`, `Sender IP Address:`, `Received Date:`,
 * `SPF Alignment:`, `DKIM Alignment:`, `DMARC Results:` lines, the original headers attached or
 * pasted below). Anything else is refused as NOT_A_FAILURE_REPORT.
 *
 * Caps: the message is refused past `inputBytes` before it is read; multiparts are followed
 * `nestingDepth` deep, and MIME parts and header lines are capped (`mimeParts`, `mimeHeaderLines`);
 * every step (lines split once, a field's name up to its first ':', folded lines joined) is
 * linear, and kept values are cut to 1 KB.
 *
 * Redaction: kept are the reported domain, source IP, arrival date, failure type, DKIM domain and
 * selector, SPF/DKIM/DMARC results and alignment, and the original From and Return-Path domains.
 * Every address anywhere in what is kept has its local part replaced (`***@example.com`), the
 * original Message-ID is kept only as a SHA-256, and the original Subject and body are never kept.
 *
 * MIME is read by the intake's own reader (mime/read-mime-leaves.ts, which says why not mailparser):
 * a message/rfc822 part comes back as a leaf whose bytes are the original message.
 */
import { REPORT_LIMITS, type ReportLimits } from '../limits.js';
import { readMimeLeaves } from '../mime/read-mime-leaves.js';
import { refuse } from '../refusal.js';
import { readArfReport } from './arf-report.js';
import { readPlainTextReport } from './plain-text-report.js';
import type { FailureReport } from './types.js';

export function readFailureReport(message: Uint8Array, limits: ReportLimits = REPORT_LIMITS): FailureReport {
  if (message.length > limits.inputBytes) {
    refuse('TOO_LARGE', `The message is larger than ${Math.floor(limits.inputBytes / 1024 / 1024)} MB, more than any real failure report.`);
  }
  const leaves = readMimeLeaves(message, limits);
  const report = readArfReport(leaves) ?? readPlainTextReport(leaves);
  if (!report) {
    refuse('NOT_A_FAILURE_REPORT', 'This message is neither an RFC 6591 authentication failure report nor a plain-text DMARC failure report.');
  }
  return report;
}
