import { REPORT_FILE_CONTENT_TYPES, type DmarcPolicy, type MailSender, type SenderCategory, type UploadReportsAnswer } from '@sendwell/contracts';
import type { BadgeVariant } from '@/lib/display';

/** The window selector's choices; 30 is the intake's own default (MAIL_FLOW_DEFAULT_DAYS). */
export const WINDOW_OPTIONS = [7, 30, 90] as const;
export type WindowDays = (typeof WINDOW_OPTIONS)[number];
export const DEFAULT_WINDOW: WindowDays = 30;

const DAY_MS = 86_400_000;
const isoDay = (t: number) => new Date(t).toISOString().slice(0, 10);

/** The last `days` UTC calendar days, today included, as the intake's `from`/`to` (both inclusive). */
export function windowRange(days: number, today: Date = new Date()): { from: string; to: string } {
  const to = Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate());
  return { from: isoDay(to - (days - 1) * DAY_MS), to: isoDay(to) };
}

/**
 * One entry per day from `from` to `to`, zeros where no report counted anything, so the bars keep
 * their place in time (a gap in reports must look like a gap, not be squeezed out).
 */
export function fillDays<T extends { day: string }>(rows: readonly T[], from: string, to: string, empty: (day: string) => T): T[] {
  const byDay = new Map(rows.map((r) => [r.day, r]));
  const out: T[] = [];
  const end = Date.parse(`${to}T00:00:00Z`);
  for (let t = Date.parse(`${from}T00:00:00Z`); t <= end && out.length < 800; t += DAY_MS) {
    const day = isoDay(t);
    out.push(byDay.get(day) ?? empty(day));
  }
  return out;
}

const numberFmt = new Intl.NumberFormat('en-US');
export const count = (n: number) => numberFmt.format(n);

/** A 0..1 share as a percentage with one decimal where it matters; an em dash where nothing was counted. */
export function percent(share: number | null): string {
  if (share === null) return '—';
  const p = Math.round(share * 1000) / 10;
  return `${Number.isInteger(p) ? p.toFixed(0) : p.toFixed(1)}%`;
}

export const categoryLabel: Record<SenderCategory, string> = { authorised: 'Authorised', forwarded: 'Forwarded', unknown: 'Unknown' };
export const categoryBadge: Record<SenderCategory, BadgeVariant> = { authorised: 'secondary', forwarded: 'outline', unknown: 'destructive' };

/**
 * Forwarded mail is listed apart from the rest: it fails SPF by design once relayed, and lumping it
 * in with spoofing would make owners chase senders that are not theirs to fix.
 */
export function groupSenders(senders: readonly MailSender[]): { own: MailSender[]; forwarded: MailSender[] } {
  return { own: senders.filter((s) => s.category !== 'forwarded'), forwarded: senders.filter((s) => s.category === 'forwarded') };
}

/** An authorised sender whose mail still fails: the ones the owner can and must fix before enforcing. */
export function needsFix(sender: MailSender): boolean {
  return sender.category === 'authorised' && sender.fixes.length > 0;
}

export const policyText: Record<DmarcPolicy, string> = {
  none: 'p=none (monitoring only)',
  quarantine: 'p=quarantine (failing mail goes to spam)',
  reject: 'p=reject (failing mail is refused)',
};

const byExtension: ReadonlyArray<readonly [RegExp, string]> = [
  [/\.json\.gz$/i, 'application/tlsrpt+gzip'],
  [/\.json$/i, 'application/tlsrpt+json'],
  [/\.(gz|gzip)$/i, 'application/gzip'],
  [/\.zip$/i, 'application/zip'],
  [/\.xml$/i, 'text/xml'],
  [/\.(eml|msg)$/i, 'message/rfc822'],
];

/**
 * The Content-Type to send a chosen file with: the browser's own type when the intake accepts it, else
 * one from the extension (browsers say application/x-gzip, application/x-zip-compressed or nothing),
 * else octet-stream, which the intake reads by its magic bytes.
 */
export function reportContentType(file: { name: string; type: string }): string {
  if ((REPORT_FILE_CONTENT_TYPES as readonly string[]).includes(file.type)) return file.type;
  return byExtension.find(([re]) => re.test(file.name))?.[1] ?? 'application/octet-stream';
}

const plural = (n: number, one: string, many = `${one}s`) => `${count(n)} ${n === 1 ? one : many}`;

/** The lines shown after an upload: what was stored, and what had already been received. */
export function uploadOutcome(answer: UploadReportsAnswer): { stored: string[]; duplicates: string[] } {
  const kind = (k: 'aggregate' | 'tls') => (k === 'tls' ? 'TLS report' : 'DMARC report');
  return {
    stored: answer.accepted.map((r) => `${kind(r.kind)} ${r.reportId} from ${r.reporter}: ${plural(r.records, 'record')} stored.`),
    duplicates: answer.duplicates.map((r) => `${kind(r.kind)} ${r.reportId} from ${r.reporter} was already received.`),
  };
}

export { plural };
