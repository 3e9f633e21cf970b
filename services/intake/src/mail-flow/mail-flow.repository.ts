import { RELAYED_OVERRIDES, TLS_SUCCESS_RESULT } from '@sendwell/contracts';
import { sql, type Database } from '@sendwell/db';
import { ScanResults } from '@sendwell/scan-engine';
import type { DayWindow } from './window.js';

/** Messages of a source or a sender in a window, by what happened to them. */
export interface MailCounts {
  messages: number;
  spfAligned: number;
  dkimAligned: number;
  /** Passing DMARC: SPF or DKIM aligned. */
  pass: number;
  /** Carrying a forwarding override of the reporter. */
  forwardOverride: number;
  /** Failing DMARC while SPF passed for another (unaligned) domain: the service's own MAIL FROM. */
  spfPassUnaligned: number;
  /** Failing DMARC while DKIM passed for another (unaligned) domain: the service signs as itself. */
  dkimPassUnaligned: number;
}

/** One source address's mail in a window, summed by Postgres. */
export interface SourceRow extends MailCounts {
  ip: string;
  /** Forward-confirmed reverse DNS name, once the namer has looked. */
  host: string | null;
  serviceId: string | null;
  /** Whether the namer has looked the address up (a null host then means no confirmed name). */
  lookedUp: boolean;
  dkimSelectors: string[];
  /** Messages passing SPF for any domain, aligned or not (the sender requirements' SPF figure). */
  spfPass: number;
  /** Messages with a passing DKIM signature, aligned or not. */
  dkimPass: number;
}

export interface DailyRow {
  day: string;
  pass: number;
  fail: number;
  forwarded: number;
}

export interface TlsDailyRow {
  day: string;
  successful: number;
  failed: number;
}

export interface ReportRow {
  id: number;
  kind: 'aggregate' | 'tls';
  orgName: string;
  orgEmail: string | null;
  reportId: string;
  periodBegin: Date;
  periodEnd: Date;
  records: number;
  messages: number;
  channel: 'smtp' | 'https' | 'upload';
  receivedAt: Date;
  hasSource: boolean;
}

/** TLS-RPT successes are stored as rows of this result type (the ingest's convention); every other type is a failure. */

const n = (value: string | number | null | undefined): number => (value == null ? 0 : Number(value));

/**
 * The mail-flow reads. Aggregates are summed in Postgres over the domain's day range (partition
 * pruning on dmarc_records_daily keeps it to the window's months); JS sees one row per source address
 * or per day.
 */
export class MailFlowRepository {
  constructor(private readonly db: Database) {}

  async sources(domainId: number, window: DayWindow): Promise<SourceRow[]> {
    const { rows } = await sql<Record<string, string | string[] | boolean | null>>`
      select host(r.source_ip) as ip, s.host, s.service_id, (s.named_at is not null) as looked_up,
        sum(r.messages)::bigint as messages,
        coalesce(sum(r.messages) filter (where r.spf_aligned), 0)::bigint as spf_aligned,
        coalesce(sum(r.messages) filter (where r.dkim_aligned), 0)::bigint as dkim_aligned,
        coalesce(sum(r.messages) filter (where r.spf_aligned or r.dkim_aligned), 0)::bigint as pass,
        coalesce(sum(r.messages) filter (where r.override = any(${[...RELAYED_OVERRIDES]}::text[])), 0)::bigint as forward_override,
        coalesce(sum(r.messages) filter (where not (r.spf_aligned or r.dkim_aligned) and r.spf_result = 'pass'), 0)::bigint as spf_pass_unaligned,
        coalesce(sum(r.messages) filter (where not (r.spf_aligned or r.dkim_aligned) and r.dkim_result = 'pass'), 0)::bigint as dkim_pass_unaligned,
        coalesce(sum(r.messages) filter (where r.spf_aligned or r.spf_result = 'pass'), 0)::bigint as spf_pass,
        coalesce(sum(r.messages) filter (where r.dkim_aligned or r.dkim_result = 'pass'), 0)::bigint as dkim_pass,
        coalesce(array_agg(distinct r.dkim_selector) filter (where r.dkim_selector <> ''), '{}') as dkim_selectors
      from dmarc_records_daily r
      left join mail_sources s on s.ip = r.source_ip
      where r.domain_id = ${domainId} and r.day between ${window.from}::date and ${window.to}::date
      group by r.source_ip, s.host, s.service_id, s.named_at
    `.execute(this.db);
    return rows.map((row) => ({
      ip: row.ip as string,
      host: (row.host as string | null) ?? null,
      serviceId: (row.serviceId as string | null) ?? null,
      lookedUp: row.lookedUp === true,
      messages: n(row.messages as string),
      spfAligned: n(row.spfAligned as string),
      dkimAligned: n(row.dkimAligned as string),
      pass: n(row.pass as string),
      forwardOverride: n(row.forwardOverride as string),
      spfPassUnaligned: n(row.spfPassUnaligned as string),
      dkimPassUnaligned: n(row.dkimPassUnaligned as string),
      spfPass: n(row.spfPass as string),
      dkimPass: n(row.dkimPass as string),
      dkimSelectors: (row.dkimSelectors as string[] | null) ?? [],
    }));
  }

  /**
   * Messages per day: passing, failing, and failing but relayed (a forwarding override, or a source
   * the namer matched to a catalogue forwarder), so forwarding is never counted as a failure.
   */
  async daily(domainId: number, window: DayWindow, forwarderIds: readonly string[]): Promise<DailyRow[]> {
    const { rows } = await sql<{ day: string; pass: string; fail: string; forwarded: string }>`
      select d.day::text as day,
        coalesce(sum(d.messages) filter (where d.aligned), 0)::bigint as pass,
        coalesce(sum(d.messages) filter (where not d.aligned and not d.relayed), 0)::bigint as fail,
        coalesce(sum(d.messages) filter (where not d.aligned and d.relayed), 0)::bigint as forwarded
      from (
        select r.day, r.messages, (r.spf_aligned or r.dkim_aligned) as aligned,
          (r.override = any(${[...RELAYED_OVERRIDES]}::text[]) or coalesce(s.service_id = any(${[...forwarderIds]}::text[]), false)) as relayed
        from dmarc_records_daily r
        left join mail_sources s on s.ip = r.source_ip
        where r.domain_id = ${domainId} and r.day between ${window.from}::date and ${window.to}::date
      ) d
      group by d.day
    `.execute(this.db);
    return rows.map((row) => ({ day: row.day, pass: n(row.pass), fail: n(row.fail), forwarded: n(row.forwarded) }));
  }

  /** Reports of a kind whose period overlaps the window's days. */
  async reportsInWindow(domainId: number, kind: 'aggregate' | 'tls', window: DayWindow): Promise<number> {
    const { rows } = await sql<{ count: string }>`
      select count(*)::bigint as count from mail_reports
      where domain_id = ${domainId} and kind = ${kind}
        and period_begin < (${window.to}::date + 1)::timestamp at time zone 'UTC'
        and period_end >= ${window.from}::date::timestamp at time zone 'UTC'
    `.execute(this.db);
    return n(rows[0]?.count);
  }

  /** The policy the newest aggregate report (by its period) says was published, as the ingest stored it. */
  async latestPublishedPolicy(domainId: number): Promise<Record<string, unknown> | null> {
    const row = await this.db
      .selectFrom('mailReports')
      .select('policy')
      .where('domainId', '=', domainId)
      .where('kind', '=', 'aggregate')
      .orderBy('periodEnd', 'desc')
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
    const policy = row?.policy;
    return policy && typeof policy === 'object' && !Array.isArray(policy) ? policy : null;
  }

  /** The DMARC and SPF records the domain's latest completed scan read (null where it found none). */
  async scannedRecords(domainId: number): Promise<{ dmarc: string | null; spf: string | null }> {
    const rows = await new ScanResults(this.db).checksOfLatestScan(domainId, ['dmarc', 'spf']);
    const details = (type: string): Record<string, unknown> => {
      const d = rows.find((row) => row.type === type)?.details;
      return d && typeof d === 'object' && !Array.isArray(d) ? d : {};
    };
    const dmarc = details('dmarc');
    const spf = details('spf');
    return {
      // A record inherited from the organisational domain is not this name's own: publishing it at
      // `_dmarc.<domain>` would replace its `sp` with `p`, so only the domain's own record is merged.
      dmarc: typeof dmarc.record === 'string' && dmarc.source !== 'organizational' ? dmarc.record : null,
      spf: typeof spf.record === 'string' ? spf.record : null,
    };
  }

  async firstReportAt(domainId: number): Promise<Date | null> {
    const row = await this.db.selectFrom('mailReports').select((eb) => eb.fn.min('receivedAt').as('first')).where('domainId', '=', domainId).executeTakeFirst();
    return row?.first ?? null;
  }

  async saveSettings(domainId: number, failureReports: boolean): Promise<void> {
    await this.db
      .insertInto('mailFlowSettings')
      .values({ domainId, failureReports })
      .onConflict((oc) => oc.column('domainId').doUpdateSet({ failureReports, updatedAt: sql<Date>`now()` }))
      .execute();
  }

  async tlsDaily(domainId: number, window: DayWindow): Promise<TlsDailyRow[]> {
    const { rows } = await sql<{ day: string; successful: string; failed: string }>`
      select day::text as day,
        coalesce(sum(sessions) filter (where result_type = ${TLS_SUCCESS_RESULT}), 0)::bigint as successful,
        coalesce(sum(sessions) filter (where result_type <> ${TLS_SUCCESS_RESULT}), 0)::bigint as failed
      from tls_results_daily
      where domain_id = ${domainId} and day between ${window.from}::date and ${window.to}::date
      group by day
    `.execute(this.db);
    return rows.map((row) => ({ day: row.day, successful: n(row.successful), failed: n(row.failed) }));
  }

  async tlsFailures(domainId: number, window: DayWindow): Promise<Array<{ resultType: string; mxHost: string | null; sessions: number }>> {
    const { rows } = await sql<{ resultType: string; mxHost: string; sessions: string }>`
      select result_type, mx_host, sum(sessions)::bigint as sessions
      from tls_results_daily
      where domain_id = ${domainId} and day between ${window.from}::date and ${window.to}::date and result_type <> ${TLS_SUCCESS_RESULT}
      group by result_type, mx_host
      order by sum(sessions) desc, result_type, mx_host
    `.execute(this.db);
    return rows.map((row) => ({ resultType: row.resultType, mxHost: row.mxHost === '' ? null : row.mxHost, sessions: n(row.sessions) }));
  }

  async tlsPolicies(domainId: number, window: DayWindow): Promise<Array<{ policyType: string; policyDomain: string; successful: number; failed: number }>> {
    const { rows } = await sql<{ policyType: string; policyDomain: string; successful: string; failed: string }>`
      select policy_type, policy_domain,
        coalesce(sum(sessions) filter (where result_type = ${TLS_SUCCESS_RESULT}), 0)::bigint as successful,
        coalesce(sum(sessions) filter (where result_type <> ${TLS_SUCCESS_RESULT}), 0)::bigint as failed
      from tls_results_daily
      where domain_id = ${domainId} and day between ${window.from}::date and ${window.to}::date
      group by policy_type, policy_domain
      order by sum(sessions) desc, policy_type, policy_domain
    `.execute(this.db);
    return rows.map((row) => ({ policyType: row.policyType, policyDomain: row.policyDomain, successful: n(row.successful), failed: n(row.failed) }));
  }

  async reports(domainId: number, limit: number): Promise<ReportRow[]> {
    const rows = await this.db
      .selectFrom('mailReports as r')
      .select(['r.id', 'r.kind', 'r.orgName', 'r.orgEmail', 'r.reportId', 'r.periodBegin', 'r.periodEnd', 'r.records', 'r.messages', 'r.channel', 'r.receivedAt'])
      .select((eb) => eb.exists(eb.selectFrom('mailReportSources as s').select('s.reportId').whereRef('s.reportId', '=', 'r.id')).as('hasSource'))
      .where('r.domainId', '=', domainId)
      .orderBy('r.receivedAt', 'desc')
      .orderBy('r.id', 'desc')
      .limit(limit)
      .execute();
    return rows.map((row) => ({
      ...row,
      id: Number(row.id),
      kind: row.kind as ReportRow['kind'],
      channel: row.channel as ReportRow['channel'],
      messages: Number(row.messages),
      hasSource: Boolean(row.hasSource),
    }));
  }

  async failureReports(domainId: number, limit: number) {
    const rows = await this.db
      .selectFrom('dmarcFailureReports')
      .select(['id', 'receivedAt', 'arrivalDate', sql<string | null>`host(source_ip)`.as('sourceIp'), 'authFailure', 'report'])
      .where('domainId', '=', domainId)
      .orderBy('receivedAt', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
    return rows.map((row) => ({ ...row, id: Number(row.id) }));
  }

  /** A report's stored file, only through the domain it belongs to. */
  async source(domainId: number, reportId: number) {
    return this.db
      .selectFrom('mailReportSources as s')
      .innerJoin('mailReports as r', 'r.id', 's.reportId')
      .select(['s.contentType', 's.sourceGz', 'r.kind', 'r.orgName', 'r.reportId'])
      .where('r.id', '=', String(reportId))
      .where('r.domainId', '=', domainId)
      .executeTakeFirst();
  }
}
