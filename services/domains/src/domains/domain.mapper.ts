import {
  DELETED_DOMAIN_RETENTION_DAYS,
  domainMetadataSchema,
  domainStatusSchema,
  type DeletedDomain,
  type Domain,
  type DomainStatus,
  type LastScanSummary,
} from '@sendwell/contracts';
import type { DomainRow } from './domain.repository.js';
import { toIso, toIsoOrNull } from '../shared/time.js';
import { knownOr } from '../shared/known-value.js';

const DAY_MS = 86_400_000;

export const toDomainStatus: (status: string) => DomainStatus = knownOr(domainStatusSchema, 'unknown');

/** The one place that knows both the domains row and the contracts' domain DTO. */
export function toDomainDto(row: DomainRow): Domain {
  const metadata = domainMetadataSchema.safeParse(row.metadata);
  return {
    id: row.id,
    userId: row.userId,
    name: row.name,
    status: toDomainStatus(row.status),
    lastScan: toIsoOrNull(row.lastScan),
    scanCount: row.scanCount,
    hasDetailedReport: row.hasDetailedReport,
    metadata: metadata.success ? metadata.data : {},
    isDeleted: row.isDeleted,
    deletedAt: toIsoOrNull(row.deletedAt),
    nextScanAt: toIsoOrNull(row.nextScanAt),
    scanPaused: row.scanPaused,
    createdAt: toIso(row.createdAt),
    updatedAt: toIso(row.updatedAt),
  };
}

export function restorableUntil(deletedAt: Date): Date {
  return new Date(deletedAt.getTime() + DELETED_DOMAIN_RETENTION_DAYS * DAY_MS);
}

export function toDeletedDomainDto(row: DomainRow): DeletedDomain {
  const deletedAt = row.deletedAt ?? row.updatedAt;
  return {
    id: row.id,
    name: row.name,
    status: toDomainStatus(row.status),
    scanCount: row.scanCount,
    lastScan: toIsoOrNull(row.lastScan),
    deletedAt: toIso(deletedAt),
    restorableUntil: toIso(restorableUntil(deletedAt)),
  };
}

/** Part 2 §2.5: the summary a deleted domain keeps (and an active one answers alike). */
export function toLastScanSummary(row: DomainRow): LastScanSummary {
  const status = toDomainStatus(row.status);
  const lastScan = toIsoOrNull(row.lastScan);
  const note =
    row.isDeleted && row.deletedAt
      ? `This domain was deleted. Detailed scan records are not kept for deleted domains; restore it before ${restorableUntil(row.deletedAt).toISOString().slice(0, 10)} to bring its history back.`
      : lastScan
        ? 'This domain is active. Open its page for the latest checks.'
        : 'This domain has not been scanned yet.';
  return {
    domainName: row.name,
    domainId: row.id,
    status,
    scanDate: lastScan,
    scanCount: row.scanCount,
    isDeletedDomainSummary: row.isDeleted,
    deletionDate: toIsoOrNull(row.deletedAt),
    summary: { note, totalScans: row.scanCount, lastScanDate: lastScan, domainStatus: status },
  };
}
