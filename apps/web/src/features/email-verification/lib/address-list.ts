import { EMAIL_VERIFY_BULK_MAX, type EmailVerificationResult } from '@sendwell/contracts';
import { categoryDisplay } from './categories';

export interface AddressList {
  /** Each address once, in the order first seen. */
  emails: string[];
  duplicates: number;
  /** Addresses beyond `EMAIL_VERIFY_BULK_MAX`, left out. */
  overLimit: number;
}

/**
 * The addresses in pasted text or an uploaded file: one per line, or separated by commas, semicolons,
 * tabs or spaces (a CSV's other columns are kept out by taking only cells with an @). Repeats are
 * dropped case-insensitively; past the bulk limit the rest is counted, not kept.
 */
export function parseAddressList(text: string): AddressList {
  const seen = new Set<string>();
  const emails: string[] = [];
  let duplicates = 0;
  let overLimit = 0;
  for (const raw of text.split(/[\s,;]+/)) {
    const cell = unwrapped(raw).trim();
    if (!cell.includes('@')) continue;
    const key = cell.toLowerCase();
    if (seen.has(key)) {
      duplicates += 1;
      continue;
    }
    seen.add(key);
    if (emails.length >= EMAIL_VERIFY_BULK_MAX) overLimit += 1;
    else emails.push(cell);
  }
  return { emails, duplicates, overLimit };
}

const OPENERS = new Set(['"', "'", '<', '(']);
const CLOSERS = new Set(['"', "'", '>', ')']);

/** A cell without the quotes and brackets around it ("<a@b.c>"): a scan from each end, as /[…]+$/ is quadratic on a long run. */
function unwrapped(raw: string): string {
  let start = 0;
  let end = raw.length;
  while (start < end && OPENERS.has(raw.charAt(start))) start += 1;
  while (end > start && CLOSERS.has(raw.charAt(end - 1))) end -= 1;
  return raw.slice(start, end);
}

/** A CSV cell: quoted when needed, and a leading =, +, - or @ defused so a spreadsheet never runs it as a formula. */
function cell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** The results as CSV (RFC 4180, CRLF line ends), one row per address in the order verified. */
export function resultsCsv(results: readonly EmailVerificationResult[]): string {
  const rows = [['email', 'category', 'status', 'description', 'verified_at']];
  for (const r of results) rows.push([r.email, categoryDisplay(r.category).label, r.status, r.description, r.timestamp]);
  return `${rows.map((row) => row.map(cell).join(',')).join('\r\n')}\r\n`;
}

/** Splits a list into the batches the bulk call takes. */
export function batches<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
