import { paidPlans } from '@sendwell/contracts';
import { sql, type Executor } from '@sendwell/db';

export interface ClaimedScan {
  scanId: string;
  domainId: number;
}

/** The scheduled sweep's side of `domains` and `scans`: due domains claimed, their scan rows made. */
export class DueDomains {
  constructor(private readonly db: Executor) {}

  /**
   * Claims up to `batch` due domains in one statement: the due rows are locked with SKIP LOCKED (a
   * concurrent sweeper takes other rows instead of waiting), their due time is pushed one lease ahead
   * (a scan that never completes makes the domain due again then), and a `scheduled` scan row is
   * created for each. A domain whose owner is no longer on a paid plan is unscheduled instead.
   */
  async claimDue(batch: number, leaseMs: number): Promise<{ claimed: number; scans: ClaimedScan[] }> {
    const paid = sql.join(paidPlans.map((p) => sql.lit(p)));
    const result = await sql<{ claimed: number; scans: ClaimedScan[] }>`
      with due as (
        select d.id, (u.plan_type in (${paid})) as paid
        from domains d
        join users u on u.id = d.user_id
        where d.next_scan_at <= now() and d.next_scan_at is not null and not d.is_deleted
        order by d.next_scan_at
        limit ${batch}
        for update of d skip locked
      ), claimed as (
        update domains d
        set next_scan_at = case when due.paid then now() + make_interval(secs => ${leaseMs / 1000}) else null end
        from due
        where d.id = due.id
        returning d.id, due.paid
      )
      , inserted as (
        insert into scans (domain_id, trigger)
        select id, 'scheduled' from claimed where paid
        returning id, domain_id
      )
      select
        (select count(*) from claimed)::int as claimed,
        coalesce((select json_agg(json_build_object('scanId', id, 'domainId', domain_id)) from inserted), '[]'::json) as scans
    `.execute(this.db);
    // `claimed` counts the unscheduled unpaid ones too, so a full batch of them does not end the sweep early.
    return result.rows[0] ?? { claimed: 0, scans: [] };
  }

  /** How many domains are due now, for the sweep's loop condition and logs. */
  async countDue(): Promise<number> {
    const row = await this.db
      .selectFrom('domains')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('nextScanAt', '<=', sql<Date>`now()`)
      .where('isDeleted', '=', false)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }
}
