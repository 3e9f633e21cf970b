import { DELETED_DOMAIN_RETENTION_DAYS } from '@sendwell/contracts';
import { sql, type Domains, type Selectable, type Executor } from '@sendwell/db';
import { deleteInBatches, idArray } from '../shared/batches.js';

/** Every column the domain DTO needs (never `last_manual_scan_at`, which is the cooldown's business). */
export const domainColumns = [
  'domains.id',
  'domains.userId',
  'domains.name',
  'domains.status',
  'domains.lastScan',
  'domains.scanCount',
  'domains.hasDetailedReport',
  'domains.metadata',
  'domains.isDeleted',
  'domains.deletedAt',
  'domains.nextScanAt',
  'domains.scanPaused',
  'domains.createdAt',
  'domains.updatedAt',
] as const;

export type DomainRow = Pick<
  Selectable<Domains>,
  'id' | 'userId' | 'name' | 'status' | 'lastScan' | 'scanCount' | 'hasDetailedReport' | 'metadata' | 'isDeleted' | 'deletedAt' | 'nextScanAt' | 'scanPaused' | 'createdAt' | 'updatedAt'
>;

/** `now() - 90 days`: deletions after this are still restorable (and count toward the plan limit). */
const retentionStart = sql<Date>`now() - make_interval(days => ${DELETED_DOMAIN_RETENTION_DAYS})`;

export class DomainRepository {
  constructor(private readonly db: Executor) {}

  /** Active domains of a user, newest first. */
  listActive(userId: number): Promise<DomainRow[]> {
    return this.db
      .selectFrom('domains')
      .select(domainColumns)
      .where('userId', '=', userId)
      .where('isDeleted', '=', false)
      .orderBy('createdAt', 'desc')
      .orderBy('id', 'desc')
      .execute();
  }

  /** Deleted domains still inside the restore window, most recently deleted first. */
  listRestorable(userId: number): Promise<DomainRow[]> {
    return this.db
      .selectFrom('domains')
      .select(domainColumns)
      .where('userId', '=', userId)
      .where('isDeleted', '=', true)
      .where('deletedAt', '>', retentionStart)
      .orderBy('deletedAt', 'desc')
      .orderBy('id', 'desc')
      .execute();
  }

  /** Active domains and restorable deletions: the domains of the history page and of the plan limit. */
  listVisible(userId: number): Promise<DomainRow[]> {
    return this.db
      .selectFrom('domains')
      .select(domainColumns)
      .where('userId', '=', userId)
      .where((eb) => eb.or([eb('isDeleted', '=', false), eb('deletedAt', '>', retentionStart)]))
      .orderBy('isDeleted')
      .orderBy('createdAt', 'desc')
      .orderBy('id', 'desc')
      .execute();
  }

  /** The user's active domain with this id; another user's or a deleted one reads as missing. */
  findActive(userId: number, id: number): Promise<DomainRow | undefined> {
    return this.db
      .selectFrom('domains')
      .select(domainColumns)
      .where('id', '=', id)
      .where('userId', '=', userId)
      .where('isDeleted', '=', false)
      .executeTakeFirst();
  }

  findActiveByName(userId: number, name: string): Promise<DomainRow | undefined> {
    return this.db
      .selectFrom('domains')
      .select(domainColumns)
      .where('userId', '=', userId)
      .where('name', '=', name)
      .where('isDeleted', '=', false)
      .executeTakeFirst();
  }

  /** Active, or deleted and still restorable (the last-scan summary reads both). */
  findVisible(userId: number, id: number): Promise<DomainRow | undefined> {
    return this.db
      .selectFrom('domains')
      .select(domainColumns)
      .where('id', '=', id)
      .where('userId', '=', userId)
      .where((eb) => eb.or([eb('isDeleted', '=', false), eb('deletedAt', '>', retentionStart)]))
      .executeTakeFirst();
  }

  /** The user's row for a name in any state, with whether a deletion is still restorable. */
  findAnyByName(userId: number, name: string) {
    return this.db
      .selectFrom('domains')
      .select([...domainColumns, sql<boolean>`(domains.is_deleted and domains.deleted_at > ${retentionStart})`.as('restorable')])
      .where('userId', '=', userId)
      .where('name', '=', name)
      .executeTakeFirst();
  }

  /** Active domains plus deletions still restorable: what the plan's domain limit counts. */
  async countTowardLimit(userId: number): Promise<{ total: number; active: number }> {
    const row = await this.db
      .selectFrom('domains')
      .select([sql<number>`count(*)::int`.as('total'), sql<number>`(count(*) filter (where not is_deleted))::int`.as('active')])
      .where('userId', '=', userId)
      .where((eb) => eb.or([eb('isDeleted', '=', false), eb('deletedAt', '>', retentionStart)]))
      .executeTakeFirstOrThrow();
    return row;
  }

  /** A new domain, unscheduled: the scan engine schedules it by the owner's plan in the same transaction. */
  insert(values: { userId: number; name: string }): Promise<DomainRow> {
    return this.db.insertInto('domains').values(values).returning(domainColumns).executeTakeFirstOrThrow();
  }

  /** Soft delete: out of the lists and the scheduler, history kept for the restore window. */
  softDelete(userId: number, id: number): Promise<DomainRow | undefined> {
    return this.db
      .updateTable('domains')
      .set({ isDeleted: true, deletedAt: sql<Date>`now()`, updatedAt: sql<Date>`now()` })
      .where('id', '=', id)
      .where('userId', '=', userId)
      .where('isDeleted', '=', false)
      .returning(domainColumns)
      .executeTakeFirst();
  }

  /** Brings back a deletion still inside its window, history and all (the rows were never removed). */
  restore(userId: number, name: string): Promise<DomainRow | undefined> {
    return this.db
      .updateTable('domains')
      .set({ isDeleted: false, deletedAt: null, updatedAt: sql<Date>`now()` })
      .where('userId', '=', userId)
      .where('name', '=', name)
      .where('isDeleted', '=', true)
      .where('deletedAt', '>', retentionStart)
      .returning(domainColumns)
      .executeTakeFirst();
  }

  /** A deletion past its window that the daily purge has not reached yet: removed now so the name can be added afresh. */
  async deleteExpired(userId: number, id: number): Promise<void> {
    await this.db
      .deleteFrom('domains')
      .where('id', '=', id)
      .where('userId', '=', userId)
      .where('isDeleted', '=', true)
      .where('deletedAt', '<=', retentionStart)
      .execute();
  }

  /**
   * Removes deletions older than the retention window, in batches; scans, checks, reputation and
   * alerts go with them (ON DELETE CASCADE), reports keep their data with the domain unset.
   */
  async purgeExpired(batch = 1_000): Promise<number> {
    return deleteInBatches(batch, async () => {
      const result = await this.db
        .deleteFrom('domains')
        .where((eb) =>
          eb(
            'id',
            '=',
            eb.fn.any(
              idArray<number>(
                eb.selectFrom('domains').select('id').where('isDeleted', '=', true).where('deletedAt', '<=', retentionStart).orderBy('deletedAt').limit(batch),
              ),
            ),
          ),
        )
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    });
  }
}
