import { checkDetailsByType, checkRows, checkStatusSchema, checkTypeSchema, type DomainCheck } from '@sendwell/contracts';
import type { CheckRow } from './check.repository.js';
import { toIso } from '../shared/time.js';
import { knownOr } from '../shared/known-value.js';

const toCheckStatus = knownOr(checkStatusSchema, 'unknown');
const rowOrder: ReadonlyMap<string, number> = new Map(checkRows.map((row, i) => [row.type, i]));

/** A stored check as the contracts' DTO; a row of a type this build does not know is left out. */
export function toCheckDto(row: CheckRow): DomainCheck | null {
  const type = checkTypeSchema.safeParse(row.type);
  if (!type.success) return null;
  const details = checkDetailsByType[type.data].safeParse(row.details ?? {});
  return {
    id: row.id,
    domainId: row.domainId,
    scanId: row.scanId,
    type: type.data,
    status: toCheckStatus(row.status),
    value: row.value,
    message: row.message,
    recommendation: row.recommendation,
    // Details are loose and every field optional; a malformed one is answered empty rather than failing the call.
    details: details.success ? details.data : {},
    createdAt: toIso(row.createdAt),
  } as DomainCheck;
}

/** The card's six rows in their order (SPF, DKIM, DMARC, Blacklists, SSL, DNS performance). */
export function toCheckDtos(rows: readonly CheckRow[]): DomainCheck[] {
  return rows
    .map(toCheckDto)
    .filter((c): c is DomainCheck => c !== null)
    .sort((a, b) => (rowOrder.get(a.type) ?? 99) - (rowOrder.get(b.type) ?? 99));
}
