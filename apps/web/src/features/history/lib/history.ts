/**
 * The history screens' rules (part 2 §2.3, §2.6, §9): scans grouped by second, the dashed timestamp
 * of a scan's address and back, the 10-minute match window, and what changed between two scans.
 */
import { checkRows, summariseChecks, type CheckStatus, type CheckType, type HistoryScan, type ScanHealth } from '@sendwell/contracts';
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
