import type { CheckStatus, CheckType } from '@sendwell/contracts';
import type { Executor } from '@sendwell/db';
import type { PreviousChecks, RecordedCheck } from './scan-outcome.js';

export class CheckRows {
  constructor(private readonly db: Executor) {}

  /** The scan's checks; the unique (scan_id, type) key makes a second write of the same scan a no-op. */
  async insertForScan(scanId: string, domainId: number, results: readonly RecordedCheck[], createdAt: Date) {
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

  /** A scan's checks by type, for comparing the next scan with it. */
  async byTypeForScan(scanId: string): Promise<PreviousChecks> {
    const rows = await this.db.selectFrom('domainChecks').select(['type', 'status', 'details']).where('scanId', '=', scanId).execute();
    return Object.fromEntries(rows.map((r) => [r.type as CheckType, { status: r.status as CheckStatus, details: r.details as Record<string, unknown> }]));
  }
}
