import { coreCheckTypes, domainStatusSchema, isCoreCheckType, type CheckStatus, type CheckType, type SampleDomainAnswer } from '@sendwell/contracts';
import type { SampleDomainCheckRow, SampleDomainRow } from './sample-domain.repository.js';

const order = new Map<string, number>(coreCheckTypes.map((type, index) => [type, index]));

/**
 * The quick check's answer. `checks` is null until the first scan has been written: the card then
 * reads "Scanning..." on every row (part 2 §2.9). The card's six checks come in its row order.
 */
export function toSampleDomainAnswer(row: SampleDomainRow, checks: SampleDomainCheckRow[]): SampleDomainAnswer {
  const status = domainStatusSchema.safeParse(row.status);
  return {
    domain: { name: row.name, status: status.success ? status.data : 'unknown', lastScan: row.lastScan ? row.lastScan.toISOString() : null },
    checks: row.lastScan
      ? checks
          .filter((c) => isCoreCheckType(c.type))
          .sort((a, b) => (order.get(a.type) ?? 99) - (order.get(b.type) ?? 99))
          // The table's check constraints hold type and status to the contracts' lists.
          .map((c) => ({ type: c.type as CheckType, status: c.status as CheckStatus, value: c.value, message: c.message }))
      : null,
  };
}
