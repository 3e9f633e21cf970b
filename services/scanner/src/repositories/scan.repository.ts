import { sql } from '@sendwell/db';
import type { ScanTrigger } from '@sendwell/contracts';
import type { DnsSnapshot } from '../scan/dns-snapshot.js';
import type { Executor } from './db.js';

/** Everything a scan job needs to know before it runs the checks. */
export interface ScanTarget {
  scanId: string;
  scanStatus: string;
  domainId: number;
  domainName: string;
  isDeleted: boolean;
  metadata: unknown;
}

export class ScanRepository {
  constructor(private readonly db: Executor) {}

  async findTarget(scanId: string): Promise<ScanTarget | undefined> {
    return this.db
      .selectFrom('scans')
      .innerJoin('domains', 'domains.id', 'scans.domainId')
      .select([
        'scans.id as scanId',
        'scans.status as scanStatus',
        'domains.id as domainId',
        'domains.name as domainName',
        'domains.isDeleted',
        'domains.metadata',
      ])
      .where('scans.id', '=', scanId)
      .executeTakeFirst();
  }

  /** The row lock that serialises every write of one scan: a duplicate job waits here, then sees `completed`. */
  async lockForUpdate(scanId: string) {
    return this.db
      .selectFrom('scans')
      .select(['id', 'domainId', 'status'])
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

  async markCompleted(scanId: string, overallStatus: string, snapshot: DnsSnapshot, completedAt: Date): Promise<void> {
    await this.db
      .updateTable('scans')
      .set({ status: 'completed', overallStatus, dnsSnapshot: JSON.stringify(snapshot), completedAt, error: null })
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

  /** The DNS snapshot of the domain's latest completed scan before this one, for `dns_change`. */
  async previousSnapshot(domainId: number, excludeScanId: string): Promise<DnsSnapshot | null> {
    const row = await this.db
      .selectFrom('scans')
      .select(['dnsSnapshot'])
      .where('domainId', '=', domainId)
      .where('status', '=', 'completed')
      .where('id', '<>', excludeScanId)
      .where('dnsSnapshot', 'is not', null)
      .orderBy('completedAt', 'desc')
      .orderBy('createdAt', 'desc')
      .limit(1)
      .executeTakeFirst();
    return (row?.dnsSnapshot as DnsSnapshot | null | undefined) ?? null;
  }

  async create(domainId: number, trigger: ScanTrigger): Promise<string> {
    const row = await this.db.insertInto('scans').values({ domainId, trigger }).returning(['id']).executeTakeFirstOrThrow();
    return row.id;
  }

  /** Scans created for jobs that were never queued (their domain already had one pending). */
  async deleteQueued(scanIds: string[]): Promise<void> {
    if (scanIds.length === 0) return;
    await this.db.deleteFrom('scans').where('id', 'in', scanIds).where('status', '=', 'queued').execute();
  }

  async failQueued(scanIds: string[], error: string): Promise<void> {
    if (scanIds.length === 0) return;
    await this.db
      .updateTable('scans')
      .set({ status: 'failed', error, completedAt: sql<Date>`now()` })
      .where('id', 'in', scanIds)
      .where('status', '=', 'queued')
      .execute();
  }
}
