import type { Executor } from '@sendwell/db';
import type { CheckResult } from '../checks/types.js';

export class CheckRepository {
  constructor(private readonly db: Executor) {}

  /** The scan's checks; the unique (scan_id, type) key makes a second write of the same scan a no-op. */
  async insertForScan(scanId: string, domainId: number, results: CheckResult[], createdAt: Date) {
    if (results.length === 0) return [];
    return this.db
      .insertInto('domainChecks')
      .values(
        results.map((r) => ({
          scanId,
          domainId,
          type: r.type,
          status: r.status,
          value: r.value,
          message: r.message,
          recommendation: r.recommendation,
          details: JSON.stringify(r.details),
          createdAt,
        })),
      )
      .onConflict((oc) => oc.columns(['scanId', 'type']).doNothing())
      .returning(['id', 'type'])
      .execute();
  }
}
