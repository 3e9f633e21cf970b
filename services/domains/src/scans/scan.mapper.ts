import { isCoreCheckType, scanStatusSchema, scanTriggerSchema, summariseChecks, type HistoryDay, type HistoryScan, type Scan } from '@sendwell/contracts';
import { checkStatusesFrom } from '@sendwell/scan-engine';
import type { HistoryDayRow, HistoryScanRow, ScanRow } from './scan.repository.js';
import { toIso, toIsoOrNull } from '../shared/time.js';
import { toDomainStatus } from '../domains/domain.mapper.js';
import { knownOr } from '../shared/known-value.js';

const toScanTrigger = knownOr(scanTriggerSchema, 'manual');
const toScanStatus = knownOr(scanStatusSchema, 'failed');

export function toScanDto(row: ScanRow): Scan {
  return {
    id: row.id,
    domainId: row.domainId,
    trigger: toScanTrigger(row.trigger),
    status: toScanStatus(row.status),
    overallStatus: row.overallStatus === null ? null : toDomainStatus(row.overallStatus),
    createdAt: toIso(row.createdAt),
    startedAt: toIsoOrNull(row.startedAt),
    completedAt: toIsoOrNull(row.completedAt),
    error: row.error,
  };
}

/** The summaries of the `dns_change` alert's changes (`{ summary }` objects); anything else reads as none. */
function changeSummaries(changes: unknown): string[] {
  if (!Array.isArray(changes)) return [];
  return changes.flatMap((c: unknown) => (typeof c === 'object' && c !== null && typeof (c as { summary?: unknown }).summary === 'string' ? [(c as { summary: string }).summary] : []));
}

/** A scan's checks as stored (`type=status`): each known check's status and the scan group's summary. */
function summariseStoredChecks(pairs: readonly string[]) {
  const checks = checkStatusesFrom(pairs);
  // "n/6 checks passed" and the group's health are the specification's six; the mail checks show on their own.
  const statuses = Object.entries(checks).flatMap(([type, status]) => (isCoreCheckType(type) ? [status] : []));
  return { checks, ...summariseChecks(statuses) };
}

/** A timeline day: the day's scans, and the health and status of its last scan, as the history computes them. */
export function toHistoryDayDto(row: HistoryDayRow): HistoryDay {
  return {
    day: row.day,
    scans: row.scans,
    health: summariseStoredChecks(row.checks).health,
    overallStatus: row.overallStatus === null ? null : toDomainStatus(row.overallStatus),
    score: row.score,
  };
}

/**
 * A history row: check count, "n/m passed" and the scan group's health (part 2 §4), from the
 * contracts' rules; each check's status, the scan's score (null when not shown) and its DNS changes.
 */
export function toHistoryScanDto(row: HistoryScanRow, score: number | null, dnsChanges: unknown): HistoryScan {
  const { checks, checkCount, passedCount, health } = summariseStoredChecks(row.checks);
  return {
    id: row.id,
    status: toScanStatus(row.status),
    createdAt: toIso(row.createdAt),
    checkCount,
    passedCount,
    health,
    overallStatus: row.overallStatus === null ? null : toDomainStatus(row.overallStatus),
    checks,
    score,
    dnsChanges: changeSummaries(dnsChanges),
  };
}
