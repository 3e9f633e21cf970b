import { domainLimit, isPlanType, planRules } from '@sendwell/contracts';
import { sql, type Executor } from '@sendwell/db';

export interface PlanSchedule {
  /** Domains within the plan's limit that have a scheduled scan. */
  scheduled: number;
  /** Domains above the limit: visible, not scanned. */
  paused: number;
}

/**
 * Makes a user's domains follow their plan at once, after a plan change or a domain added, removed or
 * restored. Within the plan's domain limit (oldest kept), a paid plan's domains get a scan now when they
 * have none scheduled or their next one is further off than the plan's interval (an upgrade to a faster
 * plan takes effect at once); a manual-only plan's have none. Domains above the limit are paused: no
 * scheduled scan, and no manual one (the engine refuses it) until the user upgrades or removes some.
 * Deleted domains are unscheduled. The user's row is locked, so two changes at once leave the state of
 * the later one. Adding, restoring and removing a domain call it in their own transaction: the engine
 * alone decides when a domain is scanned next.
 */
export async function applyPlanSchedule(db: Executor, userId: number, now = new Date()): Promise<PlanSchedule> {
  if (!db.isTransaction) return db.transaction().execute((trx) => applyPlanSchedule(trx, userId, now));
  const user = await db.selectFrom('users').select('planType').where('id', '=', userId).forUpdate().executeTakeFirst();
  if (!user) return { scheduled: 0, paused: 0 };

  const limit = domainLimit(user.planType);
  const intervalMs = isPlanType(user.planType) ? planRules[user.planType].scanIntervalMs : null;
  const latest = intervalMs === null ? null : new Date(now.getTime() + intervalMs);
  await sql`update domains set next_scan_at = null where user_id = ${userId} and is_deleted and next_scan_at is not null`.execute(db);
  const rows = await sql<{ scanPaused: boolean; nextScanAt: Date | null }>`
    with ranked as (
      select id, row_number() over (order by created_at, id) as rank
      from domains where user_id = ${userId} and not is_deleted
    )
    update domains d set
      scan_paused = ranked.rank > ${limit},
      next_scan_at = case
        when ranked.rank > ${limit} or ${latest}::timestamptz is null then null
        when d.next_scan_at is null or d.next_scan_at > ${latest}::timestamptz then ${now}::timestamptz
        else d.next_scan_at
      end
    from ranked
    where d.id = ranked.id
    returning d.scan_paused, d.next_scan_at
  `.execute(db);
  return {
    scheduled: rows.rows.filter((r) => !r.scanPaused && r.nextScanAt !== null).length,
    paused: rows.rows.filter((r) => r.scanPaused).length,
  };
}
