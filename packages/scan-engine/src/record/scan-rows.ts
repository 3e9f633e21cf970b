import type { ScanTrigger } from '@sendwell/contracts';
import { sql, type Executor } from '@sendwell/db';

/** A `queued` or `running` scan the recovery pass looks at (recovery/scan-recovery.ts). */
export interface UnfinishedScan {
  scanId: string;
  domainId: number;
  trigger: ScanTrigger;
  status: 'queued' | 'running';
  recoveryTries: number;
}

/** The statements that move a scan row through its life (requests, claims and recovery have their own). */
export class ScanRows {
  constructor(private readonly db: Executor) {}

  /** The row lock that serialises every write of one scan: a duplicate job waits here, then sees `completed`. */
  async lockForUpdate(scanId: string) {
    return this.db
      .selectFrom('scans')
      .select(['id', 'domainId', 'status', 'createdAt', sql<string>`stored_month::text`.as('storedMonth')])
      .where('id', '=', scanId)
      .forUpdate()
      .executeTakeFirst();
  }

  async markRunning(scanId: string): Promise<void> {
    await this.db
      .updateTable('scans')
      .set({ status: 'running', startedAt: sql<Date>`now()`, error: null })
      .where('id', '=', scanId)
      .where('status', 'in', ['queued', 'running', 'failed'])
      .execute();
  }

  async markCompleted(scanId: string, overallStatus: string, completedAt: Date): Promise<void> {
    await this.db
      .updateTable('scans')
      .set({ status: 'completed', overallStatus, completedAt, error: null })
      .where('id', '=', scanId)
      .execute();
  }

  /** A completed scan is never turned into a failed one (a late failure of a duplicate job). */
  async markFailed(scanId: string, error: string): Promise<void> {
    await this.db
      .updateTable('scans')
      .set({ status: 'failed', error, completedAt: sql<Date>`now()` })
      .where('id', '=', scanId)
      .where('status', '<>', 'completed')
      .execute();
  }

  /** The domain's latest completed scan other than this one: what a new scan is compared with. */
  async previousCompletedId(domainId: number, excludeScanId: string): Promise<string | null> {
    const row = await this.db
      .selectFrom('scans')
      .select('id')
      .where('domainId', '=', domainId)
      .where('status', '=', 'completed')
      .where('id', '<>', excludeScanId)
      .where('dnsSnapshotId', 'is not', null)
      .orderBy('completedAt', 'desc')
      .orderBy('createdAt', 'desc')
      .limit(1)
      .executeTakeFirst();
    return row?.id ?? null;
  }

  /**
   * Claims up to `batch` scans still `queued` or `running` with no sign of life for `leaseMs` (since
   * created, started or last looked at by this pass), and stamps them as looked at now. SKIP LOCKED
   * and the stamp keep two passes from taking the same scan within one lease.
   */
  async claimUnfinished(leaseMs: number, batch: number): Promise<UnfinishedScan[]> {
    const lastSign = sql`greatest(created_at, started_at, recovery_checked_at)`;
    const result = await sql<UnfinishedScan>`
      update scans s
      set recovery_checked_at = now()
      where s.id = any(array(
        select id from scans
        where status in ('queued', 'running') and ${lastSign} < now() - make_interval(secs => ${leaseMs / 1000})
        order by ${lastSign}
        limit ${batch}
        for update skip locked
      ))
      returning s.id as "scanId", s.domain_id as "domainId", s.trigger, s.status, s.recovery_tries as "recoveryTries"
    `.execute(this.db);
    return result.rows;
  }

  /** Counts one more recovery try (a re-queue, or an attempt that Redis refused) of each scan. */
  async countRecoveryTry(scanIds: string[]): Promise<void> {
    if (scanIds.length === 0) return;
    await this.db
      .updateTable('scans')
      .set((eb) => ({ recoveryTries: eb('recoveryTries', '+', 1) }))
      .where('id', 'in', scanIds)
      .execute();
  }

  /** Fails scans that are still unfinished; a scan completed meanwhile keeps its result. */
  async failUnfinished(scanIds: string[], error: string): Promise<void> {
    if (scanIds.length === 0) return;
    await this.db
      .updateTable('scans')
      .set({ status: 'failed', error, completedAt: sql<Date>`now()` })
      .where('id', 'in', scanIds)
      .where('status', 'in', ['queued', 'running'])
      .execute();
  }
}
