import { isPaidPlan, planTypes } from '@sendwell/contracts';
import { sql, type Executor } from '@sendwell/db';

const n = (value: unknown) => Number(value ?? 0);
const paidPlans = planTypes.filter(isPaidPlan);

/**
 * The system-wide counts of the administrator's statistics, each one aggregate statement. They
 * count rows: at a million domains the 24-hour scan figures would want a rollup of their own.
 */
export class SystemFiguresRepository {
  constructor(private readonly db: Executor) {}

  async scans() {
    const { rows } = await sql<{ active: string; scannedToday: string; avgSeconds: string | null; failed: string }>`
      select
        (select count(*) from scans where status = 'running') as active,
        (select count(distinct domain_id) from scans where status = 'completed' and completed_at >= date_trunc('day', now(), 'UTC')) as "scannedToday",
        (select avg(extract(epoch from completed_at - started_at)) from scans
          where status = 'completed' and completed_at >= now() - interval '24 hours' and started_at is not null) as "avgSeconds",
        (select count(*) from scans where status = 'failed' and created_at >= now() - interval '24 hours') as failed
    `.execute(this.db);
    const row = rows[0]!;
    return { active: n(row.active), domainsScannedToday: n(row.scannedToday), avgScanSeconds: Math.round(n(row.avgSeconds) * 100) / 100, failedLast24h: n(row.failed) };
  }

  async domainsAndUsers() {
    const { rows } = await sql<{ domains: string; scheduled: string; users: string; active: string; premium: string }>`
      select
        (select count(*) from domains where not is_deleted) as domains,
        (select count(*) from domains where not is_deleted and next_scan_at is not null) as scheduled,
        (select count(*) from users) as users,
        (select count(distinct user_id) from sessions where revoked_at is null and expires > now()) as active,
        (select count(*) from users where plan_type = any(${paidPlans})) as premium
    `.execute(this.db);
    const row = rows[0]!;
    return { domains: { total: n(row.domains), scheduled: n(row.scheduled) }, users: { total: n(row.users), active: n(row.active), premium: n(row.premium) } };
  }

  async alerts() {
    const { rows } = await sql<{ raised: string; delivered: string }>`
      select
        (select count(*) from domain_alerts where created_at >= now() - interval '24 hours') as raised,
        (select count(*) from alert_deliveries where status = 'sent' and sent_at >= now() - interval '24 hours') as delivered
    `.execute(this.db);
    return { raisedLast24h: n(rows[0]!.raised), deliveredLast24h: n(rows[0]!.delivered) };
  }
}
