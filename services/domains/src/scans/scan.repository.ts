import { AlertType, type DnsSnapshot } from '@sendwell/contracts';
import { sql, type Scans, type Selectable, type Executor } from '@sendwell/db';
import { ScanResults } from '@sendwell/scan-engine';

export const scanColumns = [
  'scans.id',
  'scans.domainId',
  'scans.trigger',
  'scans.status',
  'scans.overallStatus',
  'scans.createdAt',
  'scans.startedAt',
  'scans.completedAt',
  'scans.error',
] as const;
export type ScanRow = Pick<Selectable<Scans>, 'id' | 'domainId' | 'trigger' | 'status' | 'overallStatus' | 'createdAt' | 'startedAt' | 'completedAt' | 'error'>;

/** One completed scan of the history list with its checks as `type=status` (health is computed from them). */
export interface HistoryScanRow {
  id: string;
  domainId: number;
  status: string;
  overallStatus: string | null;
  createdAt: Date;
  checks: string[];
}

export class ScanRepository {
  constructor(private readonly db: Executor) {}

  /** One scan of a domain the user owns and has not deleted. */
  findOwned(userId: number, scanId: string, domainId?: number): Promise<(ScanRow & { domainName: string }) | undefined> {
    let query = this.db
      .selectFrom('scans')
      .innerJoin('domains', 'domains.id', 'scans.domainId')
      .select([...scanColumns, 'domains.name as domainName'])
      .where('scans.id', '=', scanId)
      .where('domains.userId', '=', userId)
      .where('domains.isDeleted', '=', false);
    if (domainId !== undefined) query = query.where('scans.domainId', '=', domainId);
    return query.executeTakeFirst();
  }

  /** The DNS records a scan read (written by the scanner with the scan), or null. */
  dnsSnapshot(scanId: string): Promise<DnsSnapshot | null> {
    return new ScanResults(this.db).snapshotOfScan(scanId);
  }

  findById(scanId: string): Promise<ScanRow | undefined> {
    return this.db.selectFrom('scans').select(scanColumns).where('scans.id', '=', scanId).executeTakeFirst();
  }

  /** The domain's latest completed scan (by creation, which the index orders), with its DNS snapshot. */
  async latestCompleted(domainId: number) {
    const scan = await this.db
      .selectFrom('scans')
      .select(['id', 'createdAt', 'completedAt'])
      .where('domainId', '=', domainId)
      .where('status', '=', 'completed')
      .orderBy('createdAt', 'desc')
      .limit(1)
      .executeTakeFirst();
    return scan ? { ...scan, dnsSnapshot: await this.dnsSnapshot(scan.id) } : undefined;
  }

  /** Whether the domain has a scan waiting, running or done: a sign-up domain with none still needs its first. */
  async hasLiveScan(domainId: number): Promise<boolean> {
    const row = await this.db
      .selectFrom('scans')
      .select('id')
      .where('domainId', '=', domainId)
      .where('status', 'in', ['queued', 'running', 'completed'])
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  }

  /**
   * Completed scans of the given domains, newest first, each with its checks' types and statuses,
   * read from the results it references (a status is never patched: it is part of a result's identity).
   */
  async history(domainIds: number[]): Promise<HistoryScanRow[]> {
    if (domainIds.length === 0) return [];
    return this.db
      .selectFrom('scans')
      .select([
        'scans.id',
        'scans.domainId',
        'scans.status',
        'scans.overallStatus',
        'scans.createdAt',
        sql<string[]>`array(select r.type || '=' || r.status from check_results r where r.id = any(scans.check_result_ids))`.as('checks'),
      ])
      .where('scans.domainId', 'in', domainIds)
      .where('scans.status', '=', 'completed')
      .orderBy('scans.createdAt', 'desc')
      .execute();
  }

  /** The reputation score each scan of these domains calculated, by scan id. */
  async scoresByScan(domainIds: number[]): Promise<Map<string, number>> {
    if (domainIds.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('domainReputationHistory')
      .select(['scanId', 'score'])
      .where('domainId', 'in', domainIds)
      .where('scanId', 'is not', null)
      .execute();
    return new Map(rows.map((r) => [r.scanId!, r.score]));
  }

  /** The DNS differences the scanner raised (as `dns_change` alerts) with each scan of these domains, by scan id. */
  async dnsChangesByScan(domainIds: number[]): Promise<Map<string, unknown>> {
    if (domainIds.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('domainAlerts')
      .select(['domainAlerts.scanId', 'domainAlerts.details'])
      .where('domainAlerts.domainId', 'in', domainIds)
      .where('domainAlerts.type', '=', AlertType.DnsChange)
      .where('domainAlerts.scanId', 'is not', null)
      .execute();
    return new Map(rows.map((r) => [r.scanId!, (r.details as { changes?: unknown } | null)?.changes]));
  }
}
