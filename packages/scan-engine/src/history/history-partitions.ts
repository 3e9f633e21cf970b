import { MAX_SCAN_HISTORY_DAYS, type HistoryMaintenanceRun } from '@sendwell/contracts';
import { sql, type Database, type Executor } from '@sendwell/db';

/** The tables of scan history, partitioned by month of `stored_month` (migration 2026-11-29T00-00). */
export const HISTORY_TABLES = ['scans', 'check_results', 'dns_snapshots', 'domain_reputation_history', 'scan_days'] as const;
export type HistoryTable = (typeof HISTORY_TABLES)[number];

/** Months created ahead of the current one, so a missed night or two never leaves an insert without a partition. */
export const MONTHS_AHEAD = 2;
/** One key for every change to these partitions: two runs at once would race on the catalogue. */
const PARTITION_LOCK = 250_127_028;
const DAY_MS = 86_400_000;
const PARTITION_NAME = /_(\d{4})_(\d{2})$/;
/** A scan created before a month ended may be recorded after it: domains scanned this soon after still qualify. */
const CARRY_MARGIN_DAYS = 7;

/** `YYYY-MM-01` of the month `plus` months after the one holding `at` (UTC). */
export function monthStart(at: Date, plus = 0): string {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + plus, 1)).toISOString().slice(0, 10);
}

function nextMonth(month: string): string {
  return monthStart(new Date(`${month}T00:00:00.000Z`), 1);
}

export function partitionName(table: HistoryTable, month: string): string {
  return `${table}_${month.slice(0, 4)}_${month.slice(5, 7)}`;
}

/**
 * The life of the scan history's month partitions (issue 28): months created ahead, and months past
 * the longest plan's history (MAX_SCAN_HISTORY_DAYS) dropped whole, which frees their disk at once and
 * writes no WAL per row. Before a month goes, each domain whose latest scan or score is kept there has
 * it carried forward to the current month (its `stored_month` changes, its `created_at` does not), so
 * a free domain scanned once and a deleted domain still restorable keep their last result.
 */
export class HistoryPartitions {
  constructor(
    private readonly db: Database,
    readonly historyDays = MAX_SCAN_HISTORY_DAYS,
  ) {}

  /** The months whose partitions exist, per table, oldest first. */
  async months(db: Executor = this.db): Promise<Record<HistoryTable, string[]>> {
    const { rows } = await sql<{ parent: HistoryTable; name: string }>`
      select p.relname as parent, c.relname as name
      from pg_inherits i join pg_class c on c.oid = i.inhrelid join pg_class p on p.oid = i.inhparent
      where p.relname = any(${[...HISTORY_TABLES]}::text[])`.execute(db);
    const months = Object.fromEntries(HISTORY_TABLES.map((t) => [t, [] as string[]])) as Record<HistoryTable, string[]>;
    for (const { parent, name } of rows) {
      const match = PARTITION_NAME.exec(name);
      if (match) months[parent].push(`${match[1]}-${match[2]}-01`);
    }
    for (const table of HISTORY_TABLES) months[table].sort();
    return months;
  }

  /** The oldest month kept at `now`: a month ends before the window starts only when it is wholly outside it. */
  firstKeptMonth(now: Date): string {
    return monthStart(new Date(now.getTime() - this.historyDays * DAY_MS));
  }

  /** Creates the current month and MONTHS_AHEAD after it where missing, then drops the expired months. */
  async run(now = new Date()): Promise<HistoryMaintenanceRun> {
    const created = await this.ensureMonths(now);
    return { created, ...(await this.dropExpired(now)) };
  }

  /** Creates the missing partitions of the current month and the MONTHS_AHEAD after it; the months created. */
  ensureMonths(now = new Date()): Promise<string[]> {
    return this.createMonths(Array.from({ length: MONTHS_AHEAD + 1 }, (_, plus) => monthStart(now, plus)));
  }

  /** Creates every history table's partition of these months (`YYYY-MM-01`) where missing; the months created. */
  async createMonths(wanted: readonly string[]): Promise<string[]> {
    return this.db.transaction().execute(async (trx) => {
      await sql`select pg_advisory_xact_lock(${PARTITION_LOCK})`.execute(trx);
      const existing = await this.months(trx);
      const created = new Set<string>();
      for (const month of wanted) {
        for (const table of HISTORY_TABLES) {
          if (existing[table].includes(month)) continue;
          // A partition bound takes no parameters: literals of a month this code computed.
          await sql`create table ${sql.id(partitionName(table, month))} partition of ${sql.id(table)}
            for values from (${sql.lit(month)}) to (${sql.lit(nextMonth(month))})`.execute(trx);
          created.add(month);
        }
      }
      return [...created].sort();
    });
  }

  /** Carries forward what must outlive each expired month, then drops its partitions. */
  async dropExpired(now = new Date()): Promise<Omit<HistoryMaintenanceRun, 'created'>> {
    const firstKept = this.firstKeptMonth(now);
    const target = monthStart(now);
    const months = await this.months();
    const expired = [...new Set(HISTORY_TABLES.flatMap((t) => months[t]))].filter((m) => m < firstKept).sort();
    const result = { dropped: [] as string[], carriedScans: 0, carriedScores: 0, dropMs: 0 };
    for (const month of expired) {
      const carried = await this.carryForward(month, target);
      result.carriedScans += carried.scans;
      result.carriedScores += carried.scores;
      const started = performance.now();
      await this.db.transaction().execute(async (trx) => {
        await sql`select pg_advisory_xact_lock(${PARTITION_LOCK})`.execute(trx);
        for (const table of HISTORY_TABLES) await sql`drop table if exists ${sql.id(partitionName(table, month))}`.execute(trx);
      });
      result.dropMs += performance.now() - started;
      result.dropped.push(month);
    }
    return result;
  }

  /**
   * Moves out of `month` into `target` each domain's latest completed scan when it is kept in `month`,
   * with the results and snapshot it references (a scan's results share its month), and the same for
   * each domain's latest reputation point. Only domains whose last scan was recorded before the month
   * ended (plus CARRY_MARGIN_DAYS for a scan recorded after midnight) can have it there: at a million
   * domains that is the few that stopped scanning (free, paused, deleted), found by one pass over
   * `domains` and an index probe each. One transaction.
   */
  async carryForward(month: string, target: string): Promise<{ scans: number; scores: number }> {
    const before = new Date(new Date(`${nextMonth(month)}T00:00:00.000Z`).getTime() + CARRY_MARGIN_DAYS * DAY_MS);
    return this.db.transaction().execute(async (trx) => {
      await sql`create temporary table carried_domains on commit drop as
        select id from domains where last_scan is null or last_scan < ${before}`.execute(trx);
      await sql`create temporary table carried on commit drop as
        select latest.id, latest.check_result_ids, latest.dns_snapshot_id
        from carried_domains d cross join lateral (
          select s.id, s.stored_month, s.check_result_ids, s.dns_snapshot_id from scans s
          where s.domain_id = d.id and s.status = 'completed'
          order by s.created_at desc, s.id desc limit 1) latest
        where latest.stored_month = ${month}::date`.execute(trx);
      await sql`update check_results set stored_month = ${target}::date
        where stored_month = ${month}::date and id in (select unnest(check_result_ids) from carried)`.execute(trx);
      await sql`update dns_snapshots set stored_month = ${target}::date
        where stored_month = ${month}::date and id in (select dns_snapshot_id from carried)`.execute(trx);
      const scans = await sql`update scans set stored_month = ${target}::date
        where stored_month = ${month}::date and id in (select id from carried)`.execute(trx);
      const scores = await sql`update domain_reputation_history set stored_month = ${target}::date
        where stored_month = ${month}::date and id in (
          select latest.id from carried_domains d cross join lateral (
            select r.id, r.stored_month from domain_reputation_history r
            where r.domain_id = d.id order by r.calculated_at desc, r.id desc limit 1) latest
          where latest.stored_month = ${month}::date)`.execute(trx);
      return { scans: Number(scans.numAffectedRows ?? 0), scores: Number(scores.numAffectedRows ?? 0) };
    });
  }
}
