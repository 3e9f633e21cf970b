/**
 * Display rules of the specification (part 1 §2 and §4, part 2 §2-§4 and §9) as pure functions, so the
 * web app shows and the services compute the same thing. Statuses are taken as plain strings because
 * old rows and other producers may hold values outside the enums.
 */
import { isPlanType, planRules, RECENTLY_DELETED_WINDOW_DAYS, type PlanType } from './plans.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

type DateLike = Date | string | number;
function toMs(value: DateLike): number {
  return value instanceof Date ? value.getTime() : typeof value === 'number' ? value : Date.parse(value);
}
const norm = (status: string | null | undefined) => (status ?? '').trim().toLowerCase();

/* ------------------------------------------------------------------ statuses, labels and badges */

export type BadgeVariant = 'default' | 'secondary' | 'outline' | 'destructive';

/** Domain statuses the interface names; anything else reads unknown (part 1 §3). */
export type DisplayedDomainStatus = 'healthy' | 'warning' | 'critical' | 'pending' | 'unknown';
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
export function checkStatusLabel(status: string | null | undefined): 'Valid' | 'Warning' | 'Error' {
  const s = norm(status);
  if (s === 'valid' || s === 'success') return 'Valid';
  if (s === 'warning') return 'Warning';
  return 'Error';
}

/** Blacklists row: unknown, valid or warning show Clean; error (and anything else) shows Listed. */
export function blacklistLabel(status: string | null | undefined): 'Clean' | 'Listed' {
  const s = norm(status);
  return s === 'valid' || s === 'unknown' || s === 'warning' || s === 'clean' || s === 'success' ? 'Clean' : 'Listed';
}

/** SSL Certificate row: valid Valid, error Invalid, else Unknown. */
export function sslLabel(status: string | null | undefined): 'Valid' | 'Invalid' | 'Unknown' {
  const s = norm(status);
  if (s === 'valid') return 'Valid';
  if (s === 'error') return 'Invalid';
  return 'Unknown';
}

/** DNS Performance row: success Excellent, warning Fair, error Poor, else Unknown. */
export function dnsPerformanceLabel(status: string | null | undefined): 'Excellent' | 'Fair' | 'Poor' | 'Unknown' {
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

/** The six rows of a domain card, in order, with their titles (part 1 §2, part 2 §2.9). */
export const checkRows = [
  { type: 'spf', title: 'SPF Record' },
  { type: 'dkim', title: 'DKIM' },
  { type: 'dmarc', title: 'DMARC' },
  { type: 'blacklist', title: 'Blacklists' },
  { type: 'ssl_certificate', title: 'SSL Certificate' },
  { type: 'dns_performance', title: 'DNS Performance' },
] as const;

/** The value a card row shows for a check of `type` (the short aliases ssl and dns are read too). */
export function checkRowLabel(type: string, status: string | null | undefined): string {
  switch (norm(type)) {
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

/* ------------------------------------------------------------------ scan groups */

/** A check counts as passed when valid, passed or clean (part 2 §4). */
export function isPassedCheck(status: string | null | undefined): boolean {
  const s = norm(status);
  // The spec names valid, passed and clean; DNS performance reports its best grade as `success`
  // (shown "Excellent"), and a perfect scan must read 6/6, so success passes too.
  return s === 'valid' || s === 'passed' || s === 'clean' || s === 'success';
}

export type ScanGroupHealth = 'critical' | 'warning' | 'healthy';
/** Critical if any check is error, failed or flagged; otherwise warning if any is warning; else healthy. */
export function scanGroupHealth(statuses: ReadonlyArray<string | null | undefined>): ScanGroupHealth {
  const all = statuses.map(norm);
  if (all.some((s) => s === 'error' || s === 'failed' || s === 'flagged')) return 'critical';
  if (all.some((s) => s === 'warning')) return 'warning';
  return 'healthy';
}

/** What a history row shows of a scan: its health, check count and "n/m checks passed". */
export function summariseChecks(statuses: ReadonlyArray<string | null | undefined>) {
  const passedCount = statuses.filter(isPassedCheck).length;
  return {
    checkCount: statuses.length,
    passedCount,
    health: scanGroupHealth(statuses),
    passedText: `${passedCount}/${statuses.length} checks passed`,
  };
}

/** Groups checks by their creation time cut to the second, newest group first (part 2 §2.3). */
export function groupChecksBySecond<T extends { createdAt: string }>(checks: readonly T[]): { at: string; checks: T[] }[] {
  const groups = new Map<number, T[]>();
  for (const check of checks) {
    const ms = toMs(check.createdAt);
    if (Number.isNaN(ms)) continue;
    const key = Math.floor(ms / 1000) * 1000;
    const group = groups.get(key);
    if (group) group.push(check);
    else groups.set(key, [check]);
  }
  return [...groups.entries()]
    .sort(([a], [b]) => b - a)
    .map(([key, group]) => ({ at: new Date(key).toISOString(), checks: group }));
}

/** A scan-by-time page shows the checks within 10 minutes of its timestamp (part 2 §2.6). */
export const SCAN_MATCH_WINDOW_MS = 10 * MINUTE;
export function checksNearTimestamp<T extends { createdAt: string }>(
  checks: readonly T[],
  at: DateLike,
  windowMs: number = SCAN_MATCH_WINDOW_MS,
): T[] {
  const target = toMs(at);
  if (Number.isNaN(target)) return [];
  return checks.filter((c) => Math.abs(toMs(c.createdAt) - target) <= windowMs);
}

/* ------------------------------------------------------------------ timestamps in routes */

/** /domain/{domain}/{timestamp}: colons and dots of the ISO time become dashes. */
export function encodeScanTimestamp(iso: string): string {
  return iso.replace(/[:.]/g, '-');
}

const DASHED = /^(\d{4}-\d{2}-\d{2})T(\d{2})-(\d{2})(?:-(\d{2})(?:-(\d{1,6}))?)?(Z|[+-]\d{2}-?\d{2})?$/i;

/** The dashed form back to an ISO time (UTC); null means the page shows "Invalid date". */
export function decodeScanTimestamp(value: string): string | null {
  const m = DASHED.exec(value.trim());
  let iso: string;
  if (m) {
    const [, date, hh, mm, ss = '00', frac, zone = 'Z'] = m;
    const offset = zone.toUpperCase() === 'Z' ? 'Z' : `${zone.slice(0, 3)}:${zone.slice(-2)}`;
    iso = `${date}T${hh}:${mm}:${ss}${frac ? `.${frac}` : ''}${offset}`;
  } else if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(value.trim())) {
    iso = value.trim();
  } else {
    return null;
  }
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? null : new Date(ms).toISOString();
}

export const INVALID_DATE_TEXT = 'Invalid date';

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

/** An alert counts as recent within 24 hours. */
export function isRecentAlert(createdAt: DateLike, now: DateLike = Date.now()): boolean {
  const age = toMs(now) - toMs(createdAt);
  return age >= 0 && age < DAY;
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
  const quota = isPlanType(plan) ? planRules[plan as PlanType].reportQuota : null;
  return quota === null ? null : `${used} / ${quota} reports`;
}

/** Bell badge: the count, '99+' above 99, nothing at 0. */
export function badgeCountText(count: number): string | null {
  if (count <= 0) return null;
  return count > 99 ? '99+' : String(count);
}

/* ------------------------------------------------------------------ reports and billing */

/** Cut at `max` characters with an ellipsis (report summary previews use 120). */
export function truncateText(text: string, max = 120): string {
  return text.length <= max ? text : `${text.slice(0, max).trimEnd()}...`;
}

/** Bulk delete frees an estimated 0.02 MB per report, shown with two decimals. */
export function bulkDeleteEstimateMb(reportCount: number): string {
  return (Math.max(0, reportCount) * 0.02).toFixed(2);
}

/** Invoice amounts travel in minor units. */
export function minorToMajor(amount: number): number {
  return amount / 100;
}

/** Invoice status colours: paid green, open blue, draft grey, void red, anything else grey. */
export function invoiceStatusColor(status: string | null | undefined): 'green' | 'blue' | 'grey' | 'red' {
  switch (norm(status)) {
    case 'paid':
      return 'green';
    case 'open':
      return 'blue';
    case 'void':
      return 'red';
    default:
      return 'grey';
  }
}

/* ------------------------------------------------------------------ email verification and admin */

/** send_to Safe to Send, risky Risky, do_not_send Do Not Send, error Error, anything else Unknown. */
export function emailCategoryLabel(category: string | null | undefined): string {
  switch (norm(category)) {
    case 'send_to':
      return 'Safe to Send';
    case 'risky':
      return 'Risky';
    case 'do_not_send':
      return 'Do Not Send';
    case 'error':
      return 'Error';
    default:
      return 'Unknown';
  }
}

/** The banner above a result, for the three verdict categories (part 2 §2.15). */
export function emailCategoryBanner(category: string | null | undefined): string | null {
  switch (norm(category)) {
    case 'send_to':
      return 'This email address is valid and safe to send emails to.';
    case 'risky':
      return 'This email address may be risky. Consider additional verification before sending important emails.';
    case 'do_not_send':
      return 'This email address should not be used for sending emails.';
    default:
      return null;
  }
}

/** Database pool health: Healthy, Warning, Critical, anything else Unknown. */
export function poolHealthLabel(health: string | null | undefined): 'Healthy' | 'Warning' | 'Critical' | 'Unknown' {
  switch (norm(health)) {
    case 'healthy':
      return 'Healthy';
    case 'warning':
      return 'Warning';
    case 'critical':
      return 'Critical';
    default:
      return 'Unknown';
  }
}

/** Uptime in days, hours and minutes, e.g. '3d 4h 12m'. */
export function uptimeText(seconds: number): string {
  const total = Math.max(0, Math.floor(seconds / 60));
  const d = Math.floor(total / (24 * 60));
  const h = Math.floor((total % (24 * 60)) / 60);
  const m = total % 60;
  return `${d}d ${h}h ${m}m`;
}

/** Server statistics show memory relative to 8 GB. */
export const SERVER_MEMORY_GB = 8;

/* ------------------------------------------------------------------ fixing guides */

export const fixingGuideTypes = ['spf', 'dkim', 'dmarc', 'blacklist'] as const;
export type FixingGuideType = (typeof fixingGuideTypes)[number];
export function isFixingGuideType(value: string): value is FixingGuideType {
  return (fixingGuideTypes as readonly string[]).includes(value);
}
export const dnsProviders = [
  'cloudflare',
  'godaddy',
  'namecheap',
  'route53',
  'google',
  'bluehost',
  'hostgator',
  'siteground',
  'networksolutions',
  'hover',
  'other',
] as const;
