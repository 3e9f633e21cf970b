import type { Database } from '@sendwell/db';
import { sql } from 'kysely';

/**
 * The monthly partitions of mail flow's per-day series: dmarc_records_daily and tls_results_daily by
 * `day`, dmarc_failure_reports by `received_at` (migrations 2026-11-27T00-00 and 2026-11-30T00-00). A
 * month is made for the three tables at once, ahead of need by the prune job and on demand by an
 * ingest, each in a short transaction of its own: creating a partition locks the parent table, which
 * must not be held for the length of an ingest. Expiry drops a month of the three at once.
 */

/** One key for every change to the partitions: two workers creating the same month at once would fail on the catalogue. */
const PARTITION_LOCK = 250_127_001;
const MONTH = /^(\d{4})-(\d{2})$/;

/** The partitioned tables, and the bound of a month starting on `day` in each one's key. */
const MONTHLY_TABLES = {
  dmarc_records_daily: (day: string) => day,
  tls_results_daily: (day: string) => day,
  // A timestamptz key: a bare date would be read in the session's time zone, and months are UTC.
  dmarc_failure_reports: (day: string) => `${day} 00:00:00+00`,
} as const;
export type MonthlyTable = keyof typeof MONTHLY_TABLES;
const PARENTS = Object.keys(MONTHLY_TABLES) as MonthlyTable[];

/** Months known to exist, per database handle (tests run several databases in one process). */
const created = new WeakMap<Database, Set<string>>();

function cacheOf(db: Database): Set<string> {
  let months = created.get(db);
  if (!months) {
    months = new Set();
    created.set(db, months);
  }
  return months;
}

/** `YYYY-MM` of a `YYYY-MM-DD` day. */
export function monthOf(day: string): string {
  return day.slice(0, 7);
}

/** The first day of the month after `YYYY-MM`. */
function nextMonthStart(month: string): string {
  const [, y, m] = MONTH.exec(month) ?? [];
  if (y === undefined || m === undefined) throw new Error(`not a month: ${month}`);
  return new Date(Date.UTC(Number(y), Number(m), 1)).toISOString().slice(0, 10);
}

export function partitionName(parent: MonthlyTable, month: string): string {
  return `${parent}_${month.replace('-', '_')}`;
}

/** Creates the partitions holding `days` (`YYYY-MM-DD`) that do not exist yet. */
export async function ensureMonthPartitions(db: Database, days: Iterable<string>): Promise<void> {
  const cache = cacheOf(db);
  const months = [...new Set([...days].map(monthOf))].filter((month) => !cache.has(month)).sort();
  if (months.length === 0) return;
  await db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(${PARTITION_LOCK})`.execute(trx);
    for (const month of months) {
      const next = nextMonthStart(month);
      // Bounds are literals (a partition bound takes no parameters); `month` is checked by nextMonthStart.
      for (const [parent, bound] of Object.entries(MONTHLY_TABLES)) {
        await sql`create table if not exists ${sql.id(partitionName(parent as MonthlyTable, month))} partition of ${sql.id(parent)}
          for values from (${sql.lit(bound(`${month}-01`))}) to (${sql.lit(bound(next))})`.execute(trx);
      }
    }
  });
  for (const month of months) cache.add(month);
}

/** Forgets the cached months: called when an insert found no partition (one was dropped elsewhere). */
export function forgetMonthPartitions(db: Database): void {
  created.delete(db);
}

/** Postgres' "no partition of relation found for row". */
export function isMissingPartition(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === '23514' && /no partition/i.test(String((error as { message?: unknown }).message));
}

/** Drops every month of the three tables whose days are all before `beforeDay` (`YYYY-MM-DD`); returns the partitions' names. */
export async function dropMonthPartitionsBefore(db: Database, beforeDay: string): Promise<string[]> {
  const dropped = await db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(${PARTITION_LOCK})`.execute(trx);
    const names: string[] = [];
    for (const parent of PARENTS) {
      const { rows } = await sql<{ name: string }>`select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid where i.inhparent = ${parent}::regclass`.execute(trx);
      for (const { name } of rows) {
        const month = /_(\d{4})_(\d{2})$/.exec(name);
        if (!month || name !== partitionName(parent, `${month[1]}-${month[2]}`)) continue;
        if (nextMonthStart(`${month[1]}-${month[2]}`) > beforeDay) continue;
        await sql`drop table if exists ${sql.id(name)}`.execute(trx);
        names.push(name);
      }
    }
    return names.sort();
  });
  if (dropped.length > 0) forgetMonthPartitions(db);
  return dropped;
}
