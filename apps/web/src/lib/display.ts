/**
 * Display rules of the specification (part 1 §2 and §4, part 2 §2-§4 and §9) that only the screens
 * use: badges, row labels, relative times, countdowns, account and sidebar texts. Statuses are taken
 * as plain strings because old rows may hold values outside the enums. Rules a service also computes
 * (the card's rows, a scan's summary) stay in the contracts.
 */
import { isPlanType, planRules, RECENTLY_DELETED_WINDOW_DAYS } from '@sendwell/contracts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

type DateLike = Date | string | number;
function toMs(value: DateLike): number {
  return value instanceof Date ? value.getTime() : typeof value === 'number' ? value : Date.parse(value);
}
const norm = (status: string | null | undefined) => (status ?? '').trim().toLowerCase();

/* ------------------------------------------------------------------ statuses, labels and badges */

/** `muted` is the grey badge (the email tool's Error category, part 2 §9). */
export type BadgeVariant = 'default' | 'secondary' | 'outline' | 'destructive' | 'muted';

/** Domain statuses the interface names; anything else reads unknown (part 1 §3). */
type DisplayedDomainStatus = 'healthy' | 'warning' | 'critical' | 'pending' | 'unknown';
export function displayDomainStatus(status: string | null | undefined): DisplayedDomainStatus {
  const s = norm(status);
  return s === 'healthy' || s === 'warning' || s === 'critical' || s === 'pending' ? s : 'unknown';
}

/** Domain badge: healthy secondary, warning outline, critical destructive, anything else default. */
export function domainBadgeVariant(status: string | null | undefined): BadgeVariant {
  switch (norm(status)) {
    case 'healthy':
      return 'secondary';
    case 'warning':
      return 'outline';
    case 'critical':
      return 'destructive';
    default:
      return 'default';
  }
}

/** Check-result badge, case-insensitive (part 1 §4). */
export function checkBadgeVariant(status: string | null | undefined): BadgeVariant {
  switch (norm(status)) {
    case 'valid':
    case 'passed':
    case 'clean':
      return 'secondary';
    case 'warning':
      return 'outline';
    case 'error':
    case 'missing':
    case 'failed':
    case 'flagged':
      return 'destructive';
    default:
      return 'default';
  }
}

/**
 * SPF, DKIM and DMARC rows: valid gives Valid, warning gives Warning, anything else Error (part 2 §4).
 * `success` is the DNS check's word for valid and is read as such.
 */
function checkStatusLabel(status: string | null | undefined): 'Valid' | 'Warning' | 'Error' {
  const s = norm(status);
  if (s === 'valid' || s === 'success') return 'Valid';
  if (s === 'warning') return 'Warning';
  return 'Error';
}

/** Blacklists row: unknown, valid or warning show Clean; error (and anything else) shows Listed. */
function blacklistLabel(status: string | null | undefined): 'Clean' | 'Listed' {
  const s = norm(status);
  return s === 'valid' || s === 'unknown' || s === 'warning' || s === 'clean' || s === 'success' ? 'Clean' : 'Listed';
}

/** SSL Certificate row: valid Valid, error Invalid, else Unknown. */
function sslLabel(status: string | null | undefined): 'Valid' | 'Invalid' | 'Unknown' {
  const s = norm(status);
  if (s === 'valid') return 'Valid';
  if (s === 'error') return 'Invalid';
  return 'Unknown';
}

/** DNS Performance row: success Excellent, warning Fair, error Poor, else Unknown. */
function dnsPerformanceLabel(status: string | null | undefined): 'Excellent' | 'Fair' | 'Poor' | 'Unknown' {
  switch (norm(status)) {
    case 'success':
      return 'Excellent';
    case 'warning':
      return 'Fair';
    case 'error':
      return 'Poor';
    default:
      return 'Unknown';
  }
}

/** The value a card row shows for a check of `type` (the short aliases ssl and dns are read too). */
/**
 * The mail checks' badge: unlike the six rows of the specification, a missing record is optional
 * hardening ("Not set up") and an unknown probe is usually our network's port 25 ("Unknown"), not an error.
 */
function mailCheckLabel(status: string | null | undefined): 'Valid' | 'Warning' | 'Error' | 'Not set up' | 'Unknown' {
  const s = norm(status);
  if (s === 'missing') return 'Not set up';
  if (s === 'unknown') return 'Unknown';
  return checkStatusLabel(s);
}

export function checkRowLabel(type: string, status: string | null | undefined): string {
  switch (norm(type)) {
    case 'mta_sts':
    case 'tls_rpt':
    case 'smtp':
    case 'reverse_dns':
    case 'dane':
    case 'bimi':
    case 'dnssec':
      return mailCheckLabel(status);
    case 'blacklist':
      return blacklistLabel(status);
    case 'ssl':
    case 'ssl_certificate':
      return sslLabel(status);
    case 'dns':
    case 'dns_performance':
      return dnsPerformanceLabel(status);
    default:
      return checkStatusLabel(status);
  }
}

/** Text of a row whose check has not arrived (quick check, part 2 §2.9). */
export const SCANNING_TEXT = 'Scanning...';

/* ------------------------------------------------------------------ times */

/** 'Just now', '{m}m ago', '{h}h ago', '{d}d ago' (part 1 §4); a time in the future reads 'Just now'. */
export function relativeTime(value: DateLike, now: DateLike = Date.now()): string {
  const elapsed = toMs(now) - toMs(value);
  if (Number.isNaN(elapsed) || elapsed < MINUTE) return 'Just now';
  if (elapsed < HOUR) return `${Math.floor(elapsed / MINUTE)}m ago`;
  if (elapsed < DAY) return `${Math.floor(elapsed / HOUR)}h ago`;
  return `${Math.floor(elapsed / DAY)}d ago`;
}

/** Footer of a domain card: 'Last checked: {relative time}' or 'Never scanned'. */
export function lastCheckedText(lastScan: DateLike | null | undefined, now: DateLike = Date.now()): string {
  return lastScan == null ? 'Never scanned' : `Last checked: ${relativeTime(lastScan, now)}`;
}

/** Overview line from the most recent lastScan of any domain: 'Last scan: 5m ago' or 'No scans yet'. */
export function lastScanText(lastScans: ReadonlyArray<DateLike | null | undefined>, now: DateLike = Date.now()): string {
  const times = lastScans.filter((v): v is DateLike => v != null).map(toMs).filter((v) => !Number.isNaN(v));
  if (times.length === 0) return 'No scans yet';
  return `Last scan: ${relativeTime(Math.max(...times), now)}`;
}

/**
 * When the scheduler next scans a domain of `plan`: last scan plus the plan's interval, or now when
 * never scanned; null on manual-only plans.
 */
export function nextScanTime(plan: string, lastScan: DateLike | null | undefined, now: DateLike = Date.now()): Date | null {
  const interval = isPlanType(plan) ? planRules[plan].scanIntervalMs : null;
  if (interval === null) return null;
  if (lastScan == null) return new Date(toMs(now));
  return new Date(toMs(lastScan) + interval);
}

/**
 * Countdown chip of the overview (part 1 §2): 'Scan due now', '{d}d {h}h until next scan',
 * '{h}h {m}m until next scan' or '{m}m until next scan'. Minutes round up so a chip never shows 0m.
 */
export function countdownText(nextScanAt: DateLike, now: DateLike = Date.now()): string {
  const remaining = toMs(nextScanAt) - toMs(now);
  if (Number.isNaN(remaining) || remaining <= 0) return 'Scan due now';
  const totalMinutes = Math.ceil(remaining / MINUTE);
  const d = Math.floor(totalMinutes / (24 * 60));
  const h = Math.floor((totalMinutes % (24 * 60)) / 60);
  const m = totalMinutes % 60;
  if (d > 0) return `${d}d ${h}h until next scan`;
  if (h > 0) return `${h}h ${m}m until next scan`;
  return `${m}m until next scan`;
}

/* ------------------------------------------------------------------ people and accounts */

interface NamedUser {
  firstName?: string | null;
  lastName?: string | null;
  username?: string | null;
}

/** First letters of first and last name; else the first 2 letters of the username; else 'U'. */
export function avatarInitials(user: NamedUser | null | undefined): string {
  const first = user?.firstName?.trim();
  const last = user?.lastName?.trim();
  if (first && last) return `${first[0]}${last[0]}`.toUpperCase();
  const username = user?.username?.trim();
  if (username) return username.slice(0, 2).toUpperCase();
  return 'U';
}

/** The avatar menu shows a full name only when both parts exist. */
export function fullName(user: NamedUser | null | undefined): string | null {
  const first = user?.firstName?.trim();
  const last = user?.lastName?.trim();
  return first && last ? `${first} ${last}` : null;
}

/**
 * Recently Deleted: days left = deletion date plus 30 days minus today (part 1 §2), rounded up so a
 * domain deleted a moment ago shows 30, and never below 0.
 */
export function deletedDaysLeft(
  deletedAt: DateLike,
  now: DateLike = Date.now(),
  windowDays: number = RECENTLY_DELETED_WINDOW_DAYS,
): number {
  const left = toMs(deletedAt) + windowDays * DAY - toMs(now);
  return Number.isNaN(left) ? 0 : Math.max(0, Math.ceil(left / DAY));
}

/** Deleted within the last 30 days, so listed by the Recently Deleted panel. */
export function isRecentlyDeleted(deletedAt: DateLike, now: DateLike = Date.now()): boolean {
  const age = toMs(now) - toMs(deletedAt);
  return age >= 0 && age <= RECENTLY_DELETED_WINDOW_DAYS * DAY;
}

/** Sidebar usage bar: green, amber above 70 percent, red above 90 percent. */
export function usageTone(used: number, limit: number): 'green' | 'amber' | 'red' {
  if (limit <= 0) return used > 0 ? 'red' : 'green';
  const percent = (used / limit) * 100;
  if (percent > 90) return 'red';
  if (percent > 70) return 'amber';
  return 'green';
}

/** Sidebar report counter 'x / limit reports', for plans with a quota only. */
export function reportsUsedText(used: number, plan: string): string | null {
  const quota = isPlanType(plan) ? planRules[plan].reportQuota : null;
  return quota === null ? null : `${used} / ${quota} reports`;
}

/** Bell badge: the count, '99+' above 99, nothing at 0. */
export function badgeCountText(count: number): string | null {
  if (count <= 0) return null;
  return count > 99 ? '99+' : String(count);
}

/* ------------------------------------------------------------------ fixing guides */

export const fixingGuideTypes = ['spf', 'dkim', 'dmarc', 'blacklist'] as const;
export type FixingGuideType = (typeof fixingGuideTypes)[number];
export function isFixingGuideType(value: string): value is FixingGuideType {
  return (fixingGuideTypes as readonly string[]).includes(value);
}

/** The tokens of the offered date formats (contracts' `dateFormats`), longest first so MMMM is not read as MM. */
const DATE_TOKENS = /yyyy|MMMM|MMM|MM|dd/g;

/** A date in the user's chosen format (any of the contracts' `dateFormats`), in their time zone. */
export function formatUserDate(value: DateLike, format: string, timeZone = 'UTC'): string {
  const date = new Date(value);
  const parts = (options: Intl.DateTimeFormatOptions) =>
    Object.fromEntries(new Intl.DateTimeFormat('en-US', { timeZone, ...options }).formatToParts(date).map((p) => [p.type, p.value]));
  const numeric = parts({ year: 'numeric', month: '2-digit', day: '2-digit' });
  const values: Record<string, string | undefined> = {
    yyyy: numeric.year,
    MM: numeric.month,
    dd: numeric.day,
    MMM: parts({ month: 'short' }).month,
    MMMM: parts({ month: 'long' }).month,
  };
  return format.replace(DATE_TOKENS, (token) => values[token] ?? token);
}

/** A date and time in the user's date format and time zone, e.g. "Nov 25, 2026 10:04:05 AM". */
export function formatUserDateTime(value: DateLike, format: string, timeZone = 'UTC'): string {
  const time = new Intl.DateTimeFormat('en-US', { timeZone, hour: 'numeric', minute: '2-digit', second: '2-digit' }).format(new Date(value));
  return `${formatUserDate(value, format, timeZone)} ${time}`;
}
