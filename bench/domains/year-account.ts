/**
 * A year-long account for the domains bench (issue 28): an advanced user's 10 domains scanned every
 * 15 minutes for `months` whole months before this one and this month so far, each month's scans kept
 * in their own month partition with the results they reference (as the result store leaves them: a
 * domain's unchanged results stored once a month), a reputation row per scan and the timeline's daily
 * summary. Then the history
 * reads it pages through, and the time to drop its oldest month whole once it is past every plan's
 * history, beside deleting a month of the same size row by row.
 */
import { HISTORY_TABLES, HistoryPartitions, monthStart } from '@sendwell/scan-engine';
import { sql, type Database } from '@sendwell/db';
import { summariseScanDays } from '@sendwell/testing';
import { checkTemplates, FACTORS, SNAPSHOT } from './history-fill.js';

const INTERVAL_S = 15 * 60;

/** The months from `months` months back to this one, their partitions created (the job makes only this month on). */
async function ensurePastMonths(db: Database, now: Date, months: number): Promise<string[]> {
  const wanted = Array.from({ length: months + 1 }, (_, i) => monthStart(now, i - months));
  await new HistoryPartitions(db).createMonths(wanted);
  return wanted;
}

/**
 * Fills `domainIds` with a scan every 15 minutes (the domains staggered within the interval) from the
 * start of `months` months back until `now`; answers the scans written per month.
 */
export async function fillYear(db: Database, domainIds: number[], months: number, now: Date): Promise<Map<string, number>> {
  const written = new Map<string, number>();
  const templates = checkTemplates();
  for (const month of await ensurePastMonths(db, now, months)) {
    const from = new Date(`${month}T00:00:00Z`);
    const to = new Date(Math.min(Date.parse(`${monthStart(from, 1)}T00:00:00Z`), now.getTime()));
    await db.transaction().execute(async (trx) => {
      // The month's results: each domain's checks and snapshot stored once, dated by the month's first scan.
      await sql`create temp table year_results on commit drop as
        with made as (
          insert into check_results (domain_id, type, status, value, message, recommendation, details, created_at, stored_month)
          select d.id, t.type, t.status, replace(t.value, '{domain}', d.name), replace(t.message, '{domain}', d.name), t.recommendation,
                 replace(t.details::text, '{domain}', d.name)::jsonb, ${from}, ${month}::date
          from domains d
          cross join rows from (jsonb_to_recordset(${JSON.stringify(templates)}::jsonb)
            as (type text, status text, value text, message text, recommendation text, details jsonb)) with ordinality as t(type, status, value, message, recommendation, details, ord)
          where d.id = any(${domainIds}::int[])
          order by d.id, t.ord
          returning id, domain_id
        )
        select domain_id, array_agg(id order by id) as ids from made group by domain_id`.execute(trx);
      await sql`create temp table year_snapshots on commit drop as
        with made as (
          insert into dns_snapshots (domain_id, snapshot, created_at, stored_month)
          select d.id, jsonb_set(replace(${JSON.stringify(SNAPSHOT)}, '{domain}', d.name)::jsonb, '{takenAt}', to_jsonb(${from.toISOString()}::text)), ${from}, ${month}::date
          from domains d where d.id = any(${domainIds}::int[])
          returning id, domain_id
        )
        select * from made`.execute(trx);
      // Every scan: the references and its own takenAt as its patch, as the store leaves an unchanged scan.
      const { rows } = await sql<{ n: number }>`
        with made as (
          insert into scans (domain_id, trigger, status, overall_status, created_at, started_at, completed_at, check_result_ids, dns_snapshot_id, result_patches, stored_month)
          select r.domain_id, 'scheduled', 'completed', 'healthy', at, at + interval '1 second', at + interval '4 seconds', r.ids, s.id,
                 jsonb_build_object('dnsSnapshot', jsonb_build_array(jsonb_build_array(jsonb_build_array('takenAt'), to_jsonb(at)))) ::text, ${month}::date
          from year_results r
          join year_snapshots s on s.domain_id = r.domain_id
          cross join lateral generate_series(${from}::timestamptz + (r.domain_id % 90) * interval '10 seconds', ${to}::timestamptz - interval '5 seconds', make_interval(secs => ${INTERVAL_S})) at
          returning id, domain_id, created_at, completed_at
        ), scored as (
          insert into domain_reputation_history (domain_id, scan_id, score, factors, trend, previous_score, calculated_at, stored_month)
          select domain_id, id, 80 + (extract(epoch from created_at)::bigint % 12)::int, ${JSON.stringify(FACTORS)}::jsonb, 'stable', 80, completed_at, ${month}::date
          from made
          returning 1
        )
        select (select count(*)::int from made) as n`.execute(trx);
      written.set(month, rows[0]!.n);
    });
  }
  // The timeline's daily summary, as the recorder would have kept it.
  await summariseScanDays(db, domainIds);
  await sql`
    update domains d set status = 'healthy', scan_count = x.n, last_scan = x.last, updated_at = now()
    from (select domain_id, count(*)::int as n, max(completed_at) as last from scans where domain_id = any(${domainIds}::int[]) group by domain_id) x
    where d.id = x.domain_id`.execute(db);
  await sql`vacuum analyze`.execute(db);
  return written;
}

/** Rows of the history tables kept in `month`. */
export async function rowsOfMonth(db: Database, month: string): Promise<number> {
  let total = 0;
  for (const table of HISTORY_TABLES) {
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from ${sql.table(table)} where stored_month = ${month}::date`.execute(db);
    total += rows[0]!.n;
  }
  return total;
}

/**
 * The nightly job at `at`: the months wholly past the longest plan's history dropped. Then, as the
 * peer, the next month of the same account deleted row by row (what a history without partitions
 * would have to do). Both timed here, with their row counts.
 */
export async function dropAgainstDelete(db: Database, at: Date, deleteMonth: string) {
  const partitions = new HistoryPartitions(db);
  const expired = (await partitions.months()).scans.filter((m) => m < partitions.firstKeptMonth(at));
  const droppedRows = (await Promise.all(expired.map((m) => rowsOfMonth(db, m)))).reduce((a, b) => a + b, 0);
  const started = performance.now();
  const run = await partitions.run(at);
  const runMs = performance.now() - started;
  const deletedRows = await rowsOfMonth(db, deleteMonth);
  const deleteStarted = performance.now();
  await db.transaction().execute(async (trx) => {
    for (const table of HISTORY_TABLES) await sql`delete from ${sql.table(table)} where stored_month = ${deleteMonth}::date`.execute(trx);
  });
  const deleteMs = performance.now() - deleteStarted;
  return { run, runMs, droppedRows, deletedRows, deleteMs };
}
