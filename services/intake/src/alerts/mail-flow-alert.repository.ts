import { AlertType, features, planTypes, RELAYED_OVERRIDES } from '@sendwell/contracts';
import { sql, type Executor } from '@sendwell/db';
import { AlertStore, type NewAlert } from '@sendwell/scan-engine';

/** Reporter overrides (RFC 7489 §6.6.2) that mean the mail was relayed by someone else, not spoofed. */

/** The plans whose domains get mail-flow alerts: they receive reports and have alerts recorded. */
export const alertedPlans = planTypes.filter((plan) => features.mailFlow(plan) && features.alertsRecorded(plan));

export const MAIL_FLOW_ALERT_TYPES: readonly string[] = [AlertType.MailNewSender, AlertType.MailFailureSpike, AlertType.MailReportsStopped, AlertType.TlsRptFailures];

export interface AlertedDomain {
  domainId: number;
  name: string;
  userId: number;
}

export interface ReportDay extends AlertedDomain {
  kind: 'aggregate' | 'tls';
  day: string;
}

export interface DmarcDayTotals {
  messages: number;
  failures: number;
}

export interface DaySource {
  ip: string;
  host: string | null;
  serviceId: string | null;
  messages: number;
  /** SPF or DKIM aligned: passing DMARC. */
  pass: number;
}

export interface TlsDayRow {
  resultType: string;
  mxHost: string;
  sessions: number;
}

export interface ReportingDomain extends AlertedDomain {
  reportDays: number;
  lastReceivedAt: Date;
  openAlertId: number | null;
}

export interface OpenMailAlert {
  id: number;
  conditionKey: string;
  /** The UTC day the condition was seen on (`details.day`), null for reports stopped. */
  day: string | null;
}

/** A mail-flow or sender-requirement alert: the engine's NewAlert. */
export type MailAlertRow = NewAlert;

const n = (value: string | number | null | undefined): number => (value == null ? 0 : Number(value));
/** A source's sender: its catalogue service when named, else the address itself. */
const senderIdSql = sql<string>`coalesce('service:' || s.service_id, 'ip:' || host(r.source_ip))`;

/** Reads and writes of the mail-flow alert rules; takes a transaction for the per-domain work. */
export class MailFlowAlertRepository {
  constructor(private readonly db: Executor) {}

  /**
   * The UTC days covered by the reports received in (since, now], per alerted domain and kind, clamped to
   * [earliest, today]: a report's period end is exclusive, so a midnight-to-midnight report covers one day.
   */
  async recentReportDays(since: Date, now: Date, earliest: string, today: string): Promise<ReportDay[]> {
    const { rows } = await sql<{ domainId: number; name: string; userId: number; kind: 'aggregate' | 'tls'; day: string }>`
      select r.domain_id, d.name, d.user_id, r.kind, to_char(g.day, 'YYYY-MM-DD') as day
      from mail_reports r
      join domains d on d.id = r.domain_id and not d.is_deleted
      join users u on u.id = d.user_id
      cross join lateral generate_series(
        greatest((r.period_begin at time zone 'UTC')::date, ${earliest}::date)::timestamp,
        least((greatest(r.period_end - interval '1 millisecond', r.period_begin) at time zone 'UTC')::date, ${today}::date)::timestamp,
        interval '1 day'
      ) as g(day)
      where r.received_at > ${since} and r.received_at <= ${now} and u.plan_type = any(${alertedPlans}::text[])
      group by r.domain_id, d.name, d.user_id, r.kind, g.day
      order by r.domain_id, r.kind, g.day`.execute(this.db);
    return rows;
  }

  /** Domains with aggregate reports received in (since, now]: on how many UTC days, the latest, and an open "stopped" alert. */
  async reportingDomains(since: Date, now: Date): Promise<ReportingDomain[]> {
    const { rows } = await sql<{ domainId: number; name: string; userId: number; reportDays: number; lastReceivedAt: Date; openAlertId: number | null }>`
      select d.id as domain_id, d.name, d.user_id,
        count(distinct (r.received_at at time zone 'UTC')::date)::int as report_days,
        max(r.received_at) as last_received_at,
        (select a.id from domain_alerts a
          where a.domain_id = d.id and a.condition_key = ${AlertType.MailReportsStopped} and a.resolved_at is null) as open_alert_id
      from mail_reports r
      join domains d on d.id = r.domain_id and not d.is_deleted
      join users u on u.id = d.user_id
      where r.kind = 'aggregate' and r.received_at > ${since} and r.received_at <= ${now} and u.plan_type = any(${alertedPlans}::text[])
      group by d.id, d.name, d.user_id
      order by d.id`.execute(this.db);
    return rows;
  }

  /** Holds the domain row for the transaction, so two runs cannot both raise the same alert. */
  async lockDomain(domainId: number): Promise<void> {
    await this.db.selectFrom('domains').select('id').where('id', '=', domainId).forUpdate().executeTakeFirst();
  }

  async openAlerts(domainId: number): Promise<OpenMailAlert[]> {
    const rows = await this.db
      .selectFrom('domainAlerts')
      .select(['id', 'conditionKey', sql<string | null>`details->>'day'`.as('day')])
      .where('domainId', '=', domainId)
      .where('type', 'in', MAIL_FLOW_ALERT_TYPES)
      .where('resolvedAt', 'is', null)
      .where('conditionKey', 'is not', null)
      .execute();
    return rows.map((r) => ({ id: r.id, conditionKey: r.conditionKey as string, day: r.day }));
  }

  /** Whether this condition was already alerted for this day or a later one (open or resolved): a late report raises nothing again. */
  async conditionAlertedSince(domainId: number, conditionKey: string, day: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('domainAlerts')
      .select('id')
      .where('domainId', '=', domainId)
      .where('conditionKey', '=', conditionKey)
      .where(sql<boolean>`details->>'day' >= ${day}`)
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Messages and DMARC failures (neither SPF nor DKIM aligned, not relayed by the reporter's account) per day. */
  async dmarcDaily(domainId: number, from: string, to: string): Promise<Map<string, DmarcDayTotals>> {
    const { rows } = await sql<{ day: string; messages: string; failures: string }>`
      select to_char(day, 'YYYY-MM-DD') as day, sum(messages) as messages,
        coalesce(sum(messages) filter (where not spf_aligned and not dkim_aligned and override <> all(${[...RELAYED_OVERRIDES]}::text[])), 0) as failures
      from dmarc_records_daily
      where domain_id = ${domainId} and day between ${from}::date and ${to}::date
      group by day`.execute(this.db);
    return new Map(rows.map((r) => [r.day, { messages: n(r.messages), failures: n(r.failures) }]));
  }

  /** The domain's earliest day with DMARC records in [from, to], or null. */
  async firstDmarcDay(domainId: number, from: string, to: string): Promise<string | null> {
    const { rows } = await sql<{ day: string | null }>`
      select to_char(min(day), 'YYYY-MM-DD') as day from dmarc_records_daily
      where domain_id = ${domainId} and day between ${from}::date and ${to}::date`.execute(this.db);
    return rows[0]?.day ?? null;
  }

  /** Each source address's mail on one day, with its name where the namer has one. */
  async sourcesOn(domainId: number, day: string): Promise<DaySource[]> {
    const { rows } = await sql<{ ip: string; host: string | null; serviceId: string | null; messages: string; pass: string }>`
      select host(r.source_ip) as ip, s.host, s.service_id, sum(r.messages) as messages,
        coalesce(sum(r.messages) filter (where r.spf_aligned or r.dkim_aligned), 0) as pass
      from dmarc_records_daily r
      left join mail_sources s on s.ip = r.source_ip
      where r.domain_id = ${domainId} and r.day = ${day}::date
      group by r.source_ip, s.host, s.service_id`.execute(this.db);
    return rows.map((r) => ({ ip: r.ip, host: r.host, serviceId: r.serviceId, messages: n(r.messages), pass: n(r.pass) }));
  }

  /** Which of these senders sent as the domain on a day in [from, to]. */
  async sendersSeen(domainId: number, from: string, to: string, senderIds: string[]): Promise<Set<string>> {
    if (senderIds.length === 0) return new Set();
    const { rows } = await sql<{ senderId: string }>`
      select distinct ${senderIdSql} as sender_id
      from dmarc_records_daily r
      left join mail_sources s on s.ip = r.source_ip
      where r.domain_id = ${domainId} and r.day between ${from}::date and ${to}::date
        and ${senderIdSql} = any(${senderIds}::text[])`.execute(this.db);
    return new Set(rows.map((r) => r.senderId));
  }

  /** Whether a new-sender alert names one of these sender ids for a day in [from, to]. */
  async newSenderAlerted(domainId: number, senderIds: string[], from: string, to: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('domainAlerts')
      .select('id')
      .where('domainId', '=', domainId)
      .where('type', '=', AlertType.MailNewSender)
      .where(sql<boolean>`details->>'senderId' = any(${senderIds}::text[])`)
      .where(sql<boolean>`details->>'day' between ${from} and ${to}`)
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** TLS-RPT sessions of one day by result type and MX host. */
  async tlsDay(domainId: number, day: string): Promise<TlsDayRow[]> {
    const { rows } = await sql<{ resultType: string; mxHost: string; sessions: string }>`
      select result_type, mx_host, sum(sessions) as sessions
      from tls_results_daily
      where domain_id = ${domainId} and day = ${day}::date
      group by result_type, mx_host`.execute(this.db);
    return rows.map((r) => ({ resultType: r.resultType, mxHost: r.mxHost, sessions: n(r.sessions) }));
  }

  /** Inserts one alert; null when an open alert of the same condition got there first. The write is the scan engine's. */
  async insert(domain: AlertedDomain, alert: MailAlertRow, createdAt: Date): Promise<number | null> {
    const [id] = await new AlertStore(this.db).raise(domain, [alert], createdAt);
    return id ?? null;
  }

  /** Resolves the alert if still open; whether it did. */
  async resolve(id: number, resolvedAt: Date): Promise<boolean> {
    return (await new AlertStore(this.db).resolve([id], resolvedAt)).length > 0;
  }
}
