import type { Executor } from '@sendwell/db';
import { ScanResults, type ScanCheck } from '@sendwell/scan-engine';

/** A check as the scan saw it (the engine reads it back from the results stored on change). */
export type CheckRow = ScanCheck;

export class CheckRepository {
  constructor(private readonly db: Executor) {}

  /** The checks of one scan (at most one per type). */
  forScan(scanId: string): Promise<CheckRow[]> {
    return new ScanResults(this.db).checksOfScan(scanId);
  }

  /** The checks of the domain's latest completed scan. */
  latestForDomain(domainId: number): Promise<CheckRow[]> {
    return new ScanResults(this.db).checksOfLatestScan(domainId);
  }

  /**
   * The id of the latest completed scan of the user's active domain, ownership included, in one
   * statement: `undefined` when the domain is not the user's, is deleted or does not exist; a null
   * `scanId` before its first scan completes.
   */
  latestScanOfActiveDomain(userId: number, domainId: number): Promise<{ scanId: string | null } | undefined> {
    return (
      this.db
        .selectFrom('domains')
        // Lateral: the latest scan is found for this one domain through its (domain_id, created_at) index.
        .leftJoinLateral(
          (eb) =>
            eb
              .selectFrom('scans')
              .select('scans.id')
              .whereRef('scans.domainId', '=', 'domains.id')
              .where('scans.status', '=', 'completed')
              .orderBy('scans.createdAt', 'desc')
              .limit(1)
              .as('latest'),
          (join) => join.onTrue(),
        )
        .select('latest.id as scanId')
        .where('domains.id', '=', domainId)
        .where('domains.userId', '=', userId)
        .where('domains.isDeleted', '=', false)
        .executeTakeFirst()
    );
  }
}
