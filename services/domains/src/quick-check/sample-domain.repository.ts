import type { Executor } from '@sendwell/db';
import { deleteInBatches, idArray } from '../shared/batches.js';

/** A claimed refresh that never completes (queue down) may be claimed again after this. */
const REFRESH_CLAIM_MS = 2 * 60_000;

const SAMPLE_COLUMNS = ['id', 'name', 'status', 'lastScan', 'scanCount', 'createdAt', 'updatedAt', 'lastViewedAt'] as const;

/**
 * The quick check's domains. This service creates the row; the scanner's scan-sample-domain job
 * writes its status, lastScan and checks.
 */
export class SampleDomainRepository {
  constructor(private readonly db: Executor) {}

  async findByName(name: string) {
    return this.db.selectFrom('sampleDomains').select(SAMPLE_COLUMNS).where('name', '=', name).executeTakeFirst();
  }

  /**
   * The row of `name`, created if absent. ON CONFLICT DO NOTHING keeps concurrent first visitors
   * from failing on the unique name; whoever lost the race reads the winner's row.
   */
  async findOrCreate(name: string) {
    const created = await this.db
      .insertInto('sampleDomains')
      .values({ name })
      .onConflict((oc) => oc.column('name').doNothing())
      .returning(SAMPLE_COLUMNS)
      .executeTakeFirst();
    if (created) return { row: created, created: true };
    const existing = await this.findByName(name);
    if (!existing) throw new Error(`sample domain ${name} vanished after a conflicting insert`);
    return { row: existing, created: false };
  }

  /**
   * Claims the refresh of stale results: true for exactly one caller while `lastScan` is still the
   * stale value that caller read. A visitor who read the row just before a refresh completed then
   * finds `lastScan` changed and queues nothing, so one stale period gives one refresh.
   */
  async claimRefresh(id: number, staleLastScan: Date, now: Date): Promise<boolean> {
    const claimed = await this.db
      .updateTable('sampleDomains')
      .set({ updatedAt: now })
      .where('id', '=', id)
      .where('lastScan', '=', staleLastScan)
      // The scanner sets updatedAt = lastScan; a later updatedAt marks a refresh already claimed.
      .where((eb) => eb.or([eb('updatedAt', '<=', eb.ref('lastScan')), eb('updatedAt', '<', new Date(now.getTime() - REFRESH_CLAIM_MS))]))
      .returning('id')
      .executeTakeFirst();
    return claimed !== undefined;
  }

  /** Records a quick-check view; the nightly clean-up purges sample domains nobody has viewed for a while. */
  async markViewed(id: number, at: Date): Promise<void> {
    await this.db.updateTable('sampleDomains').set({ lastViewedAt: at }).where('id', '=', id).execute();
  }

  /**
   * Deletes sample domains not viewed since `cutoff` (their checks cascade), `batch` rows per
   * statement so a large backlog never holds its locks for long. The view time is checked again by
   * each delete, so a domain viewed while the purge runs is kept.
   */
  async purgeNotViewedSince(cutoff: Date, batch: number): Promise<number> {
    return deleteInBatches(batch, async () => {
      const result = await this.db
        .deleteFrom('sampleDomains')
        .where((eb) =>
          eb('id', '=', eb.fn.any(idArray<number>(eb.selectFrom('sampleDomains').select('id').where('lastViewedAt', '<', cutoff).orderBy('lastViewedAt').limit(batch)))),
        )
        .where('lastViewedAt', '<', cutoff)
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    });
  }

  /** The latest scan's checks (the scanner replaces them on every scan). */
  async checks(sampleDomainId: number) {
    return this.db
      .selectFrom('sampleDomainChecks')
      .select(['type', 'status', 'value', 'message'])
      .where('sampleDomainId', '=', sampleDomainId)
      .orderBy('id')
      .execute();
  }
}

export type SampleDomainRow = NonNullable<Awaited<ReturnType<SampleDomainRepository['findByName']>>>;
export type SampleDomainCheckRow = Awaited<ReturnType<SampleDomainRepository['checks']>>[number];
