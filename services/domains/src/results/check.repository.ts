import type { DomainChecks, Selectable, Executor } from '@sendwell/db';

export const checkColumns = [
  'domainChecks.id',
  'domainChecks.domainId',
  'domainChecks.scanId',
  'domainChecks.type',
  'domainChecks.status',
  'domainChecks.value',
  'domainChecks.message',
  'domainChecks.recommendation',
  'domainChecks.details',
  'domainChecks.createdAt',
] as const;
export type CheckRow = Pick<
  Selectable<DomainChecks>,
  'id' | 'domainId' | 'scanId' | 'type' | 'status' | 'value' | 'message' | 'recommendation' | 'details' | 'createdAt'
>;

export class CheckRepository {
  constructor(private readonly db: Executor) {}

  /** The checks of one scan (at most one per type: a unique key). */
  forScan(scanId: string): Promise<CheckRow[]> {
    return this.db.selectFrom('domainChecks').select(checkColumns).where('scanId', '=', scanId).execute();
  }

  /** The checks of the domain's latest completed scan, in one statement (the scans index finds it). */
  latestForDomain(domainId: number): Promise<CheckRow[]> {
    return this.db
      .selectFrom('domainChecks')
      .select(checkColumns)
      .where('scanId', '=', (eb) =>
        eb
          .selectFrom('scans')
          .select('scans.id')
          .where('scans.domainId', '=', domainId)
          .where('scans.status', '=', 'completed')
          .orderBy('scans.createdAt', 'desc')
          .limit(1),
      )
      .execute();
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
