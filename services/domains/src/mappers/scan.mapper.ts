import { scanStatusSchema, scanTriggerSchema, summariseChecks, type HistoryScan, type Scan } from '@sendwell/contracts';
import type { HistoryScanRow, ScanRow } from '../repositories/scan.repository.js';
import { toIso, toIsoOrNull } from './time.js';
import { toDomainStatus } from './domain.mapper.js';
import { knownOr } from './known-value.js';

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

/** A history row: check count, "n/m passed" and the scan group's health (part 2 §4), from the contracts' rules. */
export function toHistoryScanDto(row: HistoryScanRow): HistoryScan {
  const { checkCount, passedCount, health } = summariseChecks(row.checkStatuses);
  return {
    id: row.id,
    status: toScanStatus(row.status),
    createdAt: toIso(row.createdAt),
    checkCount,
    passedCount,
    health,
  };
}
