import { domainStatusSchema, scanStatusSchema, scanTriggerSchema, summariseChecks, type HistoryScan, type Scan } from '@sendwell/contracts';
import type { HistoryScanRow, ScanRow } from '../repositories/scan.repository.js';
import { toIso, toIsoOrNull } from './time.js';

export function toScanDto(row: ScanRow): Scan {
  return {
    id: row.id,
    domainId: row.domainId,
    trigger: scanTriggerSchema.catch('manual').parse(row.trigger),
    status: scanStatusSchema.catch('failed').parse(row.status),
    overallStatus: row.overallStatus === null ? null : domainStatusSchema.catch('unknown').parse(row.overallStatus),
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
    status: scanStatusSchema.catch('failed').parse(row.status),
    createdAt: toIso(row.createdAt),
    checkCount,
    passedCount,
    health,
  };
}
