/**
 * Reads what the intake stored from the DMARC aggregate and TLS-RPT reports of one domain
 * (mail_reports, dmarc_records_daily, tls_results_daily, mail_sources). Sums are taken in Postgres over
 * the window's days (partition pruning keeps dmarc_records_daily to its months); the model names,
 * groups and ranks.
 */
import { RELAYED_OVERRIDES, SENDING_SERVICES, TLS_SUCCESS_RESULT } from '@sendwell/contracts';
import { sql, type Database } from '@sendwell/db';
import type { SourceMailFlow } from '../model/build-report.js';

/** Reporter overrides (RFC 7489 §6.6.2) that mean relayed, not spoofed: the intake's mail-flow screen counts these as forwarded. */
/** TLS-RPT successes are stored as rows of this result type (the intake's convention); any other type is a failure. */

const FORWARDER_IDS = SENDING_SERVICES.filter((s) => s.kind === 'forwarder').map((s) => s.id);
const n = (value: string | number | null | undefined): number => (value == null ? 0 : Number(value));

/** Both ends included, `YYYY-MM-DD` (UTC). */
export interface MailFlowWindow {
  from: string;
  to: string;
}

export class MailFlowSourceRepository {
  constructor(private readonly db: Database) {}

  /** The owner's plan, which decides whether the report has the section at all. */
  async planOf(userId: number): Promise<string | null> {
    const row = await this.db.selectFrom('users').select('planType').where('id', '=', userId).executeTakeFirst();
    return row?.planType ?? null;
  }

  /**
   * The window's figures, or null when no aggregate or TLS report covers it and no row was summed.
   * `detail` false (a summary report) reads the totals only.
   */
  async mailFlow(domainId: number, window: MailFlowWindow, detail: boolean): Promise<SourceMailFlow | null> {
    const [reports, totals, tlsTotals] = await Promise.all([this.reportCounts(domainId, window), this.totals(domainId, window), this.tlsTotals(domainId, window)]);
    const messages = totals.pass + totals.fail + totals.forwarded;
    if (reports.aggregate + reports.tls === 0 && messages === 0 && tlsTotals.successful + tlsTotals.failed === 0) return null;
    if (!detail) return { window, reports, totals, sources: [], policy: null, tls: null };
    const [sources, policy, failures] = await Promise.all([this.sources(domainId, window), this.policy(domainId, window), this.tlsFailures(domainId, window)]);
    const hasTls = reports.tls > 0 || tlsTotals.successful + tlsTotals.failed > 0;
    return { window, reports, totals, sources, policy, tls: hasTls ? { reports: reports.tls, ...tlsTotals, failures } : null };
  }

  /** Reports of each kind whose period overlaps the window's days. */
  private async reportCounts(domainId: number, window: MailFlowWindow): Promise<{ aggregate: number; tls: number }> {
    const { rows } = await sql<{ aggregate: string; tls: string }>`
      select count(*) filter (where kind = 'aggregate')::bigint as aggregate, count(*) filter (where kind = 'tls')::bigint as tls
      from mail_reports
      where domain_id = ${domainId}
        and period_begin < (${window.to}::date + 1)::timestamp at time zone 'UTC'
        and period_end >= ${window.from}::date::timestamp at time zone 'UTC'
    `.execute(this.db);
    return { aggregate: n(rows[0]?.aggregate), tls: n(rows[0]?.tls) };
  }

  /** Passing (SPF or DKIM aligned), failing, and failing but relayed (a forwarding override or a catalogue forwarder's address). */
  private async totals(domainId: number, window: MailFlowWindow): Promise<{ pass: number; fail: number; forwarded: number }> {
    const { rows } = await sql<{ pass: string; fail: string; forwarded: string }>`
      select
        coalesce(sum(d.messages) filter (where d.aligned), 0)::bigint as pass,
        coalesce(sum(d.messages) filter (where not d.aligned and not d.relayed), 0)::bigint as fail,
        coalesce(sum(d.messages) filter (where not d.aligned and d.relayed), 0)::bigint as forwarded
      from (
        select r.messages, (r.spf_aligned or r.dkim_aligned) as aligned,
          (r.override = any(${[...RELAYED_OVERRIDES]}::text[]) or coalesce(s.service_id = any(${FORWARDER_IDS}::text[]), false)) as relayed
        from dmarc_records_daily r
        left join mail_sources s on s.ip = r.source_ip
        where r.domain_id = ${domainId} and r.day between ${window.from}::date and ${window.to}::date
      ) d
    `.execute(this.db);
    return { pass: n(rows[0]?.pass), fail: n(rows[0]?.fail), forwarded: n(rows[0]?.forwarded) };
  }

  /** One row per source address with its name, its mail and what of it passed DMARC. */
  private async sources(domainId: number, window: MailFlowWindow): Promise<SourceMailFlow['sources']> {
    const { rows } = await sql<{ ip: string; host: string | null; serviceId: string | null; messages: string; pass: string }>`
      select host(r.source_ip) as ip, s.host, s.service_id,
        sum(r.messages)::bigint as messages,
        coalesce(sum(r.messages) filter (where r.spf_aligned or r.dkim_aligned), 0)::bigint as pass
      from dmarc_records_daily r
      left join mail_sources s on s.ip = r.source_ip
      where r.domain_id = ${domainId} and r.day between ${window.from}::date and ${window.to}::date
      group by r.source_ip, s.host, s.service_id
    `.execute(this.db);
    return rows.map((row) => ({ ip: row.ip, host: row.host, serviceId: row.serviceId, messages: n(row.messages), pass: n(row.pass) }));
  }

  /** The policy the newest aggregate report (by its period) up to the window's end says was published. */
  private async policy(domainId: number, window: MailFlowWindow): Promise<SourceMailFlow['policy']> {
    const row = await this.db
      .selectFrom('mailReports')
      .select(['policy', 'orgName', 'periodEnd'])
      .where('domainId', '=', domainId)
      .where('kind', '=', 'aggregate')
      .where('periodBegin', '<', sql<Date>`(${window.to}::date + 1)::timestamp at time zone 'UTC'`)
      .orderBy('periodEnd', 'desc')
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
    return row ? { published: row.policy, reporter: row.orgName, periodEnd: row.periodEnd } : null;
  }

  private async tlsTotals(domainId: number, window: MailFlowWindow): Promise<{ successful: number; failed: number }> {
    const { rows } = await sql<{ successful: string; failed: string }>`
      select coalesce(sum(sessions) filter (where result_type = ${TLS_SUCCESS_RESULT}), 0)::bigint as successful,
        coalesce(sum(sessions) filter (where result_type <> ${TLS_SUCCESS_RESULT}), 0)::bigint as failed
      from tls_results_daily
      where domain_id = ${domainId} and day between ${window.from}::date and ${window.to}::date
    `.execute(this.db);
    return { successful: n(rows[0]?.successful), failed: n(rows[0]?.failed) };
  }

  /** Failed sessions by result type, most first. */
  private async tlsFailures(domainId: number, window: MailFlowWindow): Promise<Array<{ resultType: string; sessions: number }>> {
    const { rows } = await sql<{ resultType: string; sessions: string }>`
      select result_type, sum(sessions)::bigint as sessions
      from tls_results_daily
      where domain_id = ${domainId} and day between ${window.from}::date and ${window.to}::date and result_type <> ${TLS_SUCCESS_RESULT}
      group by result_type
      order by sum(sessions) desc, result_type
    `.execute(this.db);
    return rows.map((row) => ({ resultType: row.resultType, sessions: n(row.sessions) }));
  }
}
