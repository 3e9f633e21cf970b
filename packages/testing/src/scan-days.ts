import { sql, type Executor } from '@sendwell/db';

/**
 * Rebuilds the timeline's daily summary (`scan_days`) of these domains from their completed scans, as
 * the scan engine's recorder would have kept it had it written them: for test and bench history
 * seeded straight into `scans` (a thousand scans in one statement instead of a thousand recordings).
 * Per UTC day of creation: the scans, the last one's id, time, overall status and `type=status` of its
 * checks, and the day's last score by calculation time.
 */
export async function summariseScanDays(db: Executor, domainIds: readonly number[]): Promise<void> {
  if (domainIds.length === 0) return;
  await sql`delete from scan_days where domain_id = any(${[...domainIds]}::int[])`.execute(db);
  await sql`
    insert into scan_days (domain_id, day, stored_month, scans, last_scan_id, last_scan_at, overall_status, checks, score)
    select l.domain_id, l.d, l.stored_month, l.n, l.id, l.created_at, l.overall_status,
      array(select r.type || '=' || r.status from check_results r where r.id = any(l.check_result_ids) order by r.type),
      (select h.score from domain_reputation_history h
        where h.domain_id = l.domain_id and h.calculated_at >= (l.d::timestamp at time zone 'UTC') and h.calculated_at < ((l.d + 1)::timestamp at time zone 'UTC')
        order by h.calculated_at desc, h.id desc limit 1)
    from (
      select distinct on (domain_id, d) domain_id, d, id, created_at, overall_status, check_result_ids, stored_month,
        (count(*) over (partition by domain_id, d))::int as n
      from (select s.*, (s.created_at at time zone 'UTC')::date as d from scans s where s.domain_id = any(${[...domainIds]}::int[]) and s.status = 'completed') s
      order by domain_id, d, created_at desc, id desc
    ) l`.execute(db);
}
