/**
 * The history screens' rules (part 2 §2.3, §2.6, §9): scans grouped by second, the dashed timestamp
 * of a scan's address and back, the 10-minute match window, and what changed between two scans.
 */
import {
  checkRows,
  HISTORY_DAYS_MAX,
  summariseChecks,
  type CheckStatus,
  type CheckType,
  type DomainHistoryAnswer,
  type HistoryDay,
  type HistoryScan,
  type ScanHealth,
} from '@sendwell/contracts';
import { checkRowLabel } from '@/lib/display';

/** Scans in a group lie within the same second; the page lists groups, not raw scans (part 2 §9). */
export interface ScanGroup {
  /** The group's second, ISO form without milliseconds ("2026-11-25T01:02:03Z"). */
  second: string;
  /** The newest scan of the group (its id opens the scan's detail). */
  scan: HistoryScan;
  scans: HistoryScan[];
  health: ScanHealth;
  checkCount: number;
  passedCount: number;
  /** Each check's status, from the newest scan of the group that ran it. */
  checks: Partial<Record<CheckType, CheckStatus>>;
  score: number | null;
  dnsChanges: string[];
}

const toSecond = (iso: string) => `${new Date(iso).toISOString().slice(0, 19)}Z`;

/** Groups scans (newest first, as the call answers) by the second they were taken in, newest first. */
export function groupScansBySecond(scans: readonly HistoryScan[]): ScanGroup[] {
  const groups: ScanGroup[] = [];
  let current: HistoryScan[] = [];
  const flush = () => {
    if (current.length === 0) return;
    const [newest] = current as [HistoryScan, ...HistoryScan[]];
    const checks: Partial<Record<CheckType, CheckStatus>> = {};
    for (const scan of [...current].reverse()) Object.assign(checks, scan.checks);
    const statuses = current.length === 1 ? null : Object.values(checks);
    const summary = statuses ? summariseChecks(statuses) : newest;
    groups.push({
      second: toSecond(newest.createdAt),
      scan: newest,
      scans: current,
      health: summary.health,
      checkCount: summary.checkCount,
      passedCount: summary.passedCount,
      checks,
      score: current.find((s) => s.score !== null)?.score ?? null,
      dnsChanges: current.flatMap((s) => s.dnsChanges),
    });
    current = [];
  };
  for (const scan of scans) {
    if (current.length > 0 && toSecond(current[0]!.createdAt) !== toSecond(scan.createdAt)) flush();
    current.push(scan);
  }
  flush();
  return groups;
}

/** The address form of a scan time: colons and dots replaced by dashes (part 2 §2.3). */
export function scanTimestampParam(iso: string): string {
  return new Date(iso).toISOString().replace(/[:.]/g, '-');
}

const DASHED = /^(\d{4}-\d{2}-\d{2})T(\d{2})-(\d{2})-(\d{2})(?:-(\d{1,3}))?(Z?)$/;

/** The dashed timestamp back in ISO form; null when it is not one (the page says "Invalid date"). */
export function parseScanTimestamp(param: string): Date | null {
  const m = DASHED.exec(param);
  const iso = m ? `${m[1]}T${m[2]}:${m[3]}:${m[4]}${m[5] ? `.${m[5]}` : ''}${m[6] || 'Z'}` : param;
  const time = Date.parse(iso);
  if (Number.isNaN(time) || !/^\d{4}-\d{2}-\d{2}T/.test(iso)) return null;
  return new Date(time);
}

/** Scans taken this close to a timestamp belong to it (part 2 §9). */
export const SCAN_MATCH_WINDOW_MS = 10 * 60_000;

/** The scan nearest to `at` within the window, or null ("No scan data found"). */
export function scanNearest<T extends { createdAt: string }>(scans: readonly T[], at: Date): T | null {
  let best: T | null = null;
  let bestGap = Infinity;
  for (const scan of scans) {
    const gap = Math.abs(Date.parse(scan.createdAt) - at.getTime());
    if (gap <= SCAN_MATCH_WINDOW_MS && gap < bestGap) {
      best = scan;
      bestGap = gap;
    }
  }
  return best;
}

const titleOf = (type: CheckType) => checkRows.find((r) => r.type === type)?.title ?? type;

/**
 * What changed from the group before: each check whose shown label moved ("DMARC: Valid → Warning"),
 * then the DNS differences the scanner recorded. Empty when nothing changed.
 */
export function whatChanged(group: Pick<ScanGroup, 'checks' | 'dnsChanges'>, previous: Pick<ScanGroup, 'checks'> | undefined): string[] {
  const changes: string[] = [];
  if (previous) {
    for (const { type } of checkRows) {
      const before = previous.checks[type];
      const now = group.checks[type];
      if (!before || !now) continue;
      const from = checkRowLabel(type, before);
      const to = checkRowLabel(type, now);
      if (from !== to) changes.push(`${titleOf(type)}: ${from} → ${to}`);
    }
  }
  return [...changes, ...group.dnsChanges];
}

/** One page of a domain's scans (newest first) and the cursor of the next, older page (null at the end). */
export interface DomainScanPage {
  scans: HistoryScan[];
  nextCursor: string | null;
}

/** The domain's page out of a history answer asked with `domainId` (an answer without it is an empty last page). */
export function toDomainPage(answer: DomainHistoryAnswer, domainId: number): DomainScanPage {
  const domain = answer.find((d) => d.id === domainId) ?? (answer.length === 1 ? answer[0] : undefined);
  return { scans: domain?.scans ?? [], nextCursor: domain?.nextCursor ?? null };
}

/**
 * The groups of every page loaded so far: the pages are joined before grouping, so a second split by
 * a page boundary is one group once its older part has loaded.
 */
export function groupPages(pages: readonly DomainScanPage[] | undefined): ScanGroup[] {
  return groupScansBySecond((pages ?? []).flatMap((p) => p.scans));
}

/** Rows from the end of what is loaded at which the next page is asked for. */
export const LOAD_MORE_MARGIN = 15;

/**
 * Whether the list should ask for the next page: the last row drawn (visible or overscanned) is within
 * the margin of the last loaded row, there is a next page, nothing is being fetched, and the last
 * attempt did not fail (a failed page waits for the user's retry instead of looping).
 */
export function shouldLoadMore(s: { lastIndex: number | undefined; loaded: number; hasNextPage: boolean; isFetching: boolean; failed?: boolean }, margin = LOAD_MORE_MARGIN): boolean {
  if (!s.hasNextPage || s.isFetching || s.failed || s.lastIndex === undefined) return false;
  return s.lastIndex >= s.loaded - 1 - margin;
}

/** The list's accessible count: what is loaded against the domain's total while more pages remain. */
export function scanCountLabel(loaded: number, total: number | undefined, complete: boolean): string {
  const noun = (n: number) => `${n} ${n === 1 ? 'scan' : 'scans'}`;
  if (complete) return noun(loaded);
  if (total === undefined || total <= loaded) return `${noun(loaded)} loaded, older scans to load`;
  return `${loaded} of ${noun(total)} loaded`;
}

/**
 * What a row says when nothing changed: the very oldest scan says it is the first one kept; the last
 * loaded row before more pages has no known predecessor yet; every other row had no change.
 */
export function unchangedNote(index: number, rows: number, hasNextPage: boolean): string {
  if (index < rows - 1) return 'No change from the scan before';
  return hasNextPage ? 'Scroll for the scan before' : 'First scan kept';
}

/**
 * The scan at a time (part 2 §9) out of the scans up to 10 minutes after it, newest first: the group
 * nearest `at` within the window and what changed from the group before it (where that one is loaded).
 */
export function scanAtTime(scans: readonly HistoryScan[], at: Date): { scanId: string; changes: string[] } | null {
  const groups = groupScansBySecond(scans);
  const group = scanNearest(
    groups.map((g) => ({ ...g, createdAt: g.scan.createdAt })),
    at,
  );
  if (!group) return null;
  const index = groups.findIndex((g) => g.second === group.second);
  return { scanId: group.scan.id, changes: whatChanged(group, groups[index + 1]) };
}

/** Days the timeline spans: a year, well inside what the days call allows. */
export const TIMELINE_DAYS = Math.min(365, HISTORY_DAYS_MAX);
const DAY_MS = 86_400_000;

/** The first UTC day (YYYY-MM-DD) of the timeline's window ending today. */
export function timelineFrom(now: number): string {
  return new Date(now - (TIMELINE_DAYS - 1) * DAY_MS).toISOString().slice(0, 10);
}

const utcDayFmt = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });
/** "Nov 25" for a YYYY-MM-DD day, read as the UTC day it names. */
export const formatDay = (day: string) => utcDayFmt.format(Date.parse(day));

/** How many days had each health (a day's health is that of its last scan). */
export function dayHealthCounts(days: readonly HistoryDay[]): Record<ScanHealth, number> {
  const counts = { healthy: 0, warning: 0, critical: 0 };
  for (const d of days) counts[d.health] += 1;
  return counts;
}

/** The timeline's accessible summary: the days drawn, their health, and where the score went. */
export function timelineSummary(domainName: string, days: readonly HistoryDay[]): string {
  if (days.length === 0) return `${domainName}: no scans in the last ${TIMELINE_DAYS} days`;
  const counts = dayHealthCounts(days);
  const scored = days.filter((d) => d.score !== null);
  const scans = days.reduce((n, d) => n + d.scans, 0);
  const noun = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;
  return `${domainName}: ${noun(days.length, 'day')} with ${noun(scans, 'scan')} from ${formatDay(days[0]!.day)} to ${formatDay(days[days.length - 1]!.day)}; ${counts.healthy} healthy, ${counts.warning} warning, ${counts.critical} critical${
    scored.length > 0 ? `; score from ${scored[0]!.score} to ${scored[scored.length - 1]!.score}` : ''
  }`;
}
