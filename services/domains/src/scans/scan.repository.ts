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
  completedAt: Date | null;
  /** created_at to the microsecond (UTC, ISO 8601), the page cursor's time. */
  cursorAt: string;
  checks: string[];
}

/** A history page's bounds: rows older than `before` (its time as microsecond text), within [from, to]. */
export interface HistoryPageBounds {
  limit: number;
  before?: { at: string; id: string } | undefined;
  from?: Date | undefined;
  to?: Date | undefined;
}

/** One day of a domain's history: its completed scans, its last scan's status and checks, its last score. */
export interface HistoryDayRow {
  day: string;
  scans: number;
  overallStatus: string | null;
  checks: string[];
  score: number | null;
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
   * One page of completed scans per domain, newest first by (created_at, id), each with its checks'
   * types and statuses read from the results it references (a status is never patched: it is part
   * of a result's identity). `limit` rows plus one per domain (whether an older page exists): a
   * lateral read of the (domain_id, created_at) index per domain, stopping at the page. `before`
   * (one domain's page) is the keyset: rows strictly older than (createdAt, id), so a scan arriving
   * between two pages neither repeats nor skips one. `cursorAt` is created_at to the microsecond, as
   * text: a JS Date keeps milliseconds only.
   */
  async historyPage(domainIds: number[], page: HistoryPageBounds): Promise<HistoryScanRow[]> {
    if (domainIds.length === 0) return [];
    const before = page.before
      ? sql`and s.created_at <= ${page.before.at}::timestamptz and (s.created_at < ${page.before.at}::timestamptz or s.id < ${page.before.id}::uuid)`
      : sql``;
    const from = page.from ? sql`and s.created_at >= ${page.from}` : sql``;
    const to = page.to ? sql`and s.created_at <= ${page.to}` : sql``;
    const rows = await sql<HistoryScanRow>`
      select p.* from unnest(${domainIds}::int[]) as d(id)
      cross join lateral (
        select s.id, s.domain_id, s.status, s.overall_status, s.created_at, s.completed_at,
          to_char(s.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as cursor_at,
          array(select r.type || '=' || r.status from check_results r where r.id = any(s.check_result_ids) and r.stored_month = s.stored_month) as checks
        from scans s
        where s.domain_id = d.id and s.status = 'completed' ${before} ${from} ${to}
        order by s.created_at desc, s.id desc
        limit ${page.limit + 1}
      ) p`.execute(this.db);
    return rows.rows;
  }

  /**
   * The reputation score each of these scans calculated (its own row, not a daily point), by scan id.
   * A scan's row is calculated when it completes, so each domain's read is the slice of the
   * (domain_id, calculated_at) index between its page's oldest scan and newest completion.
   */
  async scoresOfScans(scans: ReadonlyArray<Pick<HistoryScanRow, 'id' | 'domainId' | 'createdAt' | 'completedAt'>>): Promise<Map<string, number>> {
    if (scans.length === 0) return new Map();
    const ranges = new Map<number, { lo: Date; hi: Date }>();
    for (const s of scans) {
      const end = s.completedAt ?? s.createdAt;
      const r = ranges.get(s.domainId);
      if (!r) ranges.set(s.domainId, { lo: s.createdAt, hi: end });
      else {
        if (s.createdAt < r.lo) r.lo = s.createdAt;
        if (end > r.hi) r.hi = end;
      }
    }
    const ids = [...ranges.keys()];
    const rows = await sql<{ scanId: string; score: number }>`
      select h.scan_id, h.score from unnest(${ids}::int[], ${ids.map((i) => ranges.get(i)!.lo)}::timestamptz[], ${ids.map((i) => ranges.get(i)!.hi)}::timestamptz[]) as p(domain_id, lo, hi)
      cross join lateral (
        select r.scan_id, r.score, r.calculated_at, r.id from domain_reputation_history r
        where r.domain_id = p.domain_id and r.calculated_at between p.lo and p.hi
          and r.daily_for is null and r.scan_id = any(${scans.map((s) => s.id)}::uuid[])
        -- A fence: pulled up into a join, the read became a hash join over every month's partition
        -- (180 ms for a year-long account); kept lateral, it is an index range per domain.
        offset 0
      ) h
      order by h.calculated_at, h.id`.execute(this.db);
    return new Map(rows.rows.map((r) => [r.scanId, r.score]));
  }

  /** The DNS differences the scanner raised (as `dns_change` alerts) with each of these scans, by scan id. */
  async dnsChangesOfScans(scans: ReadonlyArray<Pick<HistoryScanRow, 'id' | 'domainId'>>): Promise<Map<string, unknown>> {
    if (scans.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('domainAlerts')
      .select(['domainAlerts.scanId', 'domainAlerts.details'])
      .where('domainAlerts.domainId', 'in', [...new Set(scans.map((s) => s.domainId))])
      .where('domainAlerts.type', '=', AlertType.DnsChange)
      .where('domainAlerts.scanId', 'in', scans.map((s) => s.id))
      .execute();
    return new Map(rows.map((r) => [r.scanId!, (r.details as { changes?: unknown } | null)?.changes]));
  }

  /**
   * One point per UTC day of [from, to) with a completed scan, oldest first: the day's scans, its last
   * scan's status and check statuses (`type=status`) and the day's last score, from the daily summary
   * the scan engine keeps (`scan_days`): one index range of a row per day, however many scans a day holds.
   */
  async days(domainId: number, from: Date, to: Date, withScores: boolean): Promise<HistoryDayRow[]> {
    const { rows } = await sql<HistoryDayRow>`
      select to_char(day, 'YYYY-MM-DD') as day, scans, overall_status, checks, ${withScores ? sql`score` : sql`null::int`} as score
      from scan_days
      where domain_id = ${domainId} and day >= (${from}::timestamptz at time zone 'UTC')::date and day < (${to}::timestamptz at time zone 'UTC')::date
      order by day`.execute(this.db);
    return rows;
  }
}
