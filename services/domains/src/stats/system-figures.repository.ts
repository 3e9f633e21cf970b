import { isPaidPlan, planTypes } from '@sendwell/contracts';
import { sql, type Executor } from '@sendwell/db';

const n = (value: unknown) => Number(value ?? 0);
const paidPlans = planTypes.filter(isPaidPlan);

/**
 * Below this many rows in the planner's estimate of a table (`pg_class.reltuples`, kept by
 * autovacuum and ANALYZE; -1 before the first), its totals are counted exactly; from it on they are
 * the planner's estimates. Small installations and tests stay exact; a large table costs nothing.
 */
export const EXACT_COUNT_BELOW = 100_000;

/**
 * The figures of the administrator's statistics that Postgres answers without reading large tables.
 * The 24-hour and today's figures (scans completed and failed, their average duration, domains scanned
 * today, alerts raised and deliveries sent) are running counters in Redis (server-kit's
 * SystemCounters), not counts of `scans`, `domain_alerts` or `alert_deliveries`.
 */
export class SystemFiguresRepository {
  constructor(private readonly db: Executor) {}

  /** Scans running now: unfinished scans only, read through the partial index `scans_unfinished_idx`. */
  async runningScans(): Promise<number> {
    const { rows } = await sql<{ active: string }>`select count(*) as active from scans where status = 'running'`.execute(this.db);
    return n(rows[0]!.active);
  }

  /**
   * Domains (total, scheduled) and users (total, active, premium), in one statement. Per table, by the
   * planner's estimate of its rows (`EXACT_COUNT_BELOW`):
   * - under the threshold, exact `count(*)`s (the statement reads the table);
   * - from it on, estimates from the planner's statistics, without reading the table: the table's
   *   `reltuples` times the share of its rows the filter keeps in `pg_stats` (domains not deleted: the
   *   frequency of `is_deleted = false`; scheduled: the non-null share of `next_scan_at`; premium: the
   *   frequencies of the paid plans), and for active users the distinct `user_id`s of `sessions`
   *   (the nightly clean-up deletes expired and revoked sessions, so nearly all are live).
   * A column ANALYZE has not described yet is counted exactly. The branch not taken is never run
   * (Postgres evaluates those sub-selects only when their value is asked for; EXPLAIN ANALYZE shows them
   * "never executed").
   */
  async domainsAndUsers() {
    const { rows } = await sql<{ domains: string; scheduled: string; users: string; active: string; premium: string }>`
      with
        size as (
          select
            (select reltuples from pg_class where oid = 'domains'::regclass) as domains,
            (select reltuples from pg_class where oid = 'users'::regclass) as users,
            (select reltuples from pg_class where oid = 'sessions'::regclass) as sessions
        ),
        stats as (
          select tablename, attname, null_frac, n_distinct, most_common_vals::text::text[] as vals, most_common_freqs as freqs
          from pg_stats
          where schemaname = current_schema()
            and (tablename, attname) in (('domains', 'is_deleted'), ('domains', 'next_scan_at'), ('users', 'plan_type'), ('sessions', 'user_id'))
        ),
        share as (
          -- Each share is null when ANALYZE has not yet described the column: then the count is exact.
          select
            coalesce(
              (select sum(f) from stats, unnest(vals, freqs) as mcv(v, f) where tablename = 'domains' and attname = 'is_deleted' and not v::boolean),
              (select 0 from stats where tablename = 'domains' and attname = 'is_deleted')
            ) as live,
            (select 1 - null_frac from stats where tablename = 'domains' and attname = 'next_scan_at') as scheduled,
            coalesce(
              (select sum(f) from stats, unnest(vals, freqs) as mcv(v, f) where tablename = 'users' and attname = 'plan_type' and v = any(${paidPlans})),
              (select 0 from stats where tablename = 'users' and attname = 'plan_type')
            ) as paid,
            (select case when n_distinct < 0 then -n_distinct * size.sessions else n_distinct end from stats where tablename = 'sessions' and attname = 'user_id') as "sessionUsers"
          from size
        )
      select
        case when size.domains < ${EXACT_COUNT_BELOW} or share.live is null then (select count(*) from domains where not is_deleted)
          else round(size.domains * share.live) end as domains,
        case when size.domains < ${EXACT_COUNT_BELOW} or share.scheduled is null then (select count(*) from domains where not is_deleted and next_scan_at is not null)
          else round(size.domains * share.scheduled) end as scheduled,
        case when size.users < ${EXACT_COUNT_BELOW} then (select count(*) from users)
          else round(size.users) end as users,
        case when size.sessions < ${EXACT_COUNT_BELOW} or share."sessionUsers" is null
          then (select count(distinct user_id) from sessions where revoked_at is null and expires > now())
          else round(share."sessionUsers") end as active,
        case when size.users < ${EXACT_COUNT_BELOW} or share.paid is null then (select count(*) from users where plan_type = any(${paidPlans}))
          else round(size.users * share.paid) end as premium
      from size, share
    `.execute(this.db);
    const row = rows[0]!;
    return { domains: { total: n(row.domains), scheduled: n(row.scheduled) }, users: { total: n(row.users), active: n(row.active), premium: n(row.premium) } };
  }
}
