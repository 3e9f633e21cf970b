/**
 * Seeded scan history stored as the scanner's recorder leaves it: results stored on change
 * (migration 2026-11-28T00-00_results-on-change, `ResultStore` in @sendwell/scan-engine). A bench
 * seeds one row per check per scan (and a snapshot per scan) into a temporary table of its
 * transaction, as it used to into `domain_checks` and `scans.dns_snapshot`; these store each
 * domain's distinct results once, dated by the first scan that saw them, and point every scan at the
 * ones it saw. A snapshot differing only in its `takenAt` is stored once, that time becoming the
 * scan's patch (`scans.result_patches`), as the recorder and the migration do. `storedMonth` is the
 * month partition of the seeded scans (their results share it); by default the current month.
 */
import { sql, type DB, type Transaction } from '@sendwell/db';

/** The month partition a seeded row goes to (`YYYY-MM-01`), else the current month as the tables' default. */
export const storedMonthOf = (month?: string) => sql`coalesce(${month ?? null}::date, date_trunc('month', now() at time zone 'UTC')::date)`;

/** The content of a check as a key: two rows with the same key are the same stored result. */
const contentKey = (alias: string) =>
  sql.raw(`md5(jsonb_build_array(${alias}.status, ${alias}.value, ${alias}.message, ${alias}.recommendation, ${alias}.details)::text)`);

/**
 * `checks`: a temporary table of the transaction, one row per check per scan, with the
 * columns `scan_id uuid, domain_id int, ord int, type text, status text, value text, message text,
 * recommendation text, details jsonb, at timestamptz` (`ord` orders a scan's checks, as the
 * recorder keeps the scanner's order; `at` is when the scan recorded it). Writes one `check_results`
 * row per domain, type and distinct content, and each scan's `check_result_ids`. Answers the
 * number of stored results.
 */
export async function storeSeededChecks(trx: Transaction<DB>, checks: string, storedMonth?: string): Promise<number> {
  const table = sql.raw(checks);
  await sql`
    create temp table bench_seeded_results as
    with made as (
      insert into check_results (domain_id, type, status, value, message, recommendation, details, created_at, stored_month)
      select domain_id, type, status, value, message, recommendation, details, min(at), ${storedMonthOf(storedMonth)}
      from ${table}
      group by domain_id, type, status, value, message, recommendation, details
      order by min(at), domain_id, min(ord)
      returning id, domain_id, type, ${contentKey('check_results')} as content
    )
    select * from made
  `.execute(trx);
  await sql`
    update scans s set check_result_ids = x.ids
    from (
      select c.scan_id, array_agg(r.id order by c.ord) as ids
      from ${table} c
      join bench_seeded_results r on r.domain_id = c.domain_id and r.type = c.type and r.content = ${contentKey('c')}
      group by c.scan_id
    ) x
    where s.id = x.scan_id
  `.execute(trx);
  const { rows } = await sql<{ n: number }>`select count(*)::int as n from bench_seeded_results`.execute(trx);
  await sql`drop table bench_seeded_results`.execute(trx);
  return rows[0]!.n;
}

/**
 * `snapshots`: a temporary table of the transaction, one row per scan, with the columns
 * `scan_id uuid, domain_id int, snapshot jsonb, at timestamptz`. Writes one `dns_snapshots` row per
 * domain and distinct snapshot (its `takenAt` aside), the first scan's, and each scan's
 * `dns_snapshot_id` and, where its `takenAt` differs from the stored one, its `result_patches`.
 * Answers the number of stored snapshots.
 */
export async function storeSeededSnapshots(trx: Transaction<DB>, snapshots: string, storedMonth?: string): Promise<number> {
  const table = sql.raw(snapshots);
  await sql`
    create temp table bench_seeded_snapshots as
    with firsts as (
      select distinct on (domain_id, snapshot - 'takenAt') domain_id, snapshot, at
      from ${table}
      order by domain_id, snapshot - 'takenAt', at
    ), made as (
      insert into dns_snapshots (domain_id, snapshot, created_at, stored_month)
      select domain_id, snapshot, at, ${storedMonthOf(storedMonth)} from firsts order by at, domain_id
      returning id, domain_id, snapshot
    )
    select * from made
  `.execute(trx);
  await sql`
    update scans s set
      dns_snapshot_id = n.id,
      result_patches = case
        when t.snapshot -> 'takenAt' is not distinct from n.snapshot -> 'takenAt' then null
        when t.snapshot ? 'takenAt' then jsonb_build_object('dnsSnapshot', jsonb_build_array(jsonb_build_array(jsonb_build_array('takenAt'), t.snapshot -> 'takenAt')))::text
        else jsonb_build_object('dnsSnapshot', jsonb_build_array(jsonb_build_array(jsonb_build_array('takenAt'))))::text
      end
    from ${table} t
    join bench_seeded_snapshots n on n.domain_id = t.domain_id and (n.snapshot - 'takenAt') = (t.snapshot - 'takenAt')
    where s.id = t.scan_id
  `.execute(trx);
  const { rows } = await sql<{ n: number }>`select count(*)::int as n from bench_seeded_snapshots`.execute(trx);
  await sql`drop table bench_seeded_snapshots`.execute(trx);
  return rows[0]!.n;
}
