/**
 * The mail-flow alert rules' decisions and wording, pure: the evaluator reads the figures and writes
 * what these return. Thresholds come from contracts, which the alert type descriptions quote.
 */
import { AlertType, alertTypeSeverity, MAIL_FLOW_ALERT_THRESHOLDS as T, sendingServiceById, TLS_SUCCESS_RESULT } from '@sendwell/contracts';
import type { DaySource, DmarcDayTotals, MailAlertRow, TlsDayRow } from './mail-flow-alert.repository.js';

const DAY_MS = 86_400_000;
export const isoDayOf = (date: Date): string => date.toISOString().slice(0, 10);
export const addDays = (day: string, days: number): string => isoDayOf(new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS));

/** A share rounded to 4 places. */
const share = (part: number, whole: number): number => (whole > 0 ? Math.round((part / whole) * 10_000) / 10_000 : 0);
const percent = (value: number): string => `${Math.round(value * 1000) / 10}%`;
const count = (value: number): string => value.toLocaleString('en-US');

export const tlsConditionKey = (resultType: string): string => `${AlertType.TlsRptFailures}:${resultType}`;

/**
 * The day's DMARC failures against the previous week. The baseline averages the days of that week that
 * have records: a day without reports is a gap in reporting, not a day without failures. With no
 * baseline day there is nothing to call a spike against.
 */
export function failureSpike(domain: string, day: string, series: Map<string, DmarcDayTotals>): { spiking: boolean; alert: MailAlertRow | null } {
  const today = series.get(day);
  if (!today || today.messages === 0) return { spiking: false, alert: null };
  const baseline: number[] = [];
  for (let i = T.spikeBaselineDays; i >= 1; i--) {
    const totals = series.get(addDays(day, -i));
    if (totals) baseline.push(totals.failures);
  }
  if (baseline.length === 0) return { spiking: false, alert: null };
  const average = Math.round((baseline.reduce((a, b) => a + b, 0) / baseline.length) * 100) / 100;
  const { failures, messages } = today;
  const spiking = failures >= T.spikeMinFailures && failures >= T.spikeFactor * average && failures > T.spikeMinShare * messages;
  if (!spiking) return { spiking, alert: null };
  const failureShare = share(failures, messages);
  return {
    spiking,
    alert: {
      type: AlertType.MailFailureSpike,
      severity: alertTypeSeverity.mail_failure_spike,
      title: `DMARC failures spiked for ${domain}`,
      message:
        `On ${day}, ${count(failures)} of ${count(messages)} messages sent as ${domain} failed DMARC (${percent(failureShare)}), ` +
        `against an average of ${count(average)} a day over the previous week. A sender you use may have lost its SPF or DKIM set-up, ` +
        `or someone is sending mail in the domain's name: see which senders fail in Mail flow.`,
      details: { day, failures, messages, failureShare, baselineAverage: average, baselineDays: baseline.length },
      conditionKey: AlertType.MailFailureSpike,
    },
  };
}

export interface Sender {
  senderId: string;
  name: string;
  serviceId: string | null;
  addresses: Array<{ ip: string; host: string | null; messages: number }>;
  messages: number;
  pass: number;
}

/** The day's sources grouped by sender (catalogue service when named, else the address), busiest first. */
export function sendersOf(sources: readonly DaySource[]): Sender[] {
  const senders = new Map<string, Sender>();
  for (const s of sources) {
    const senderId = s.serviceId ? `service:${s.serviceId}` : `ip:${s.ip}`;
    const name = s.serviceId ? (sendingServiceById(s.serviceId)?.name ?? s.serviceId) : s.host ? `${s.ip} (${s.host})` : s.ip;
    const sender = senders.get(senderId) ?? { senderId, name, serviceId: s.serviceId, addresses: [], messages: 0, pass: 0 };
    sender.addresses.push({ ip: s.ip, host: s.host, messages: s.messages });
    sender.messages += s.messages;
    sender.pass += s.pass;
    senders.set(senderId, sender);
  }
  const list = [...senders.values()];
  for (const s of list) s.addresses.sort((a, b) => b.messages - a.messages || a.ip.localeCompare(b.ip));
  return list.sort((a, b) => b.messages - a.messages || a.senderId.localeCompare(b.senderId));
}

/** The ids an earlier alert may have named this sender by: its own, and each address's before it was named. */
export const senderAliases = (sender: Sender): string[] => [sender.senderId, ...(sender.serviceId ? sender.addresses.map((a) => `ip:${a.ip}`) : [])];

const MAX_ADDRESSES = 20;

export function newSenderAlert(domain: string, day: string, sender: Sender): MailAlertRow {
  const dmarcPass = share(sender.pass, sender.messages);
  const addresses = sender.addresses.slice(0, MAX_ADDRESSES);
  const from = sender.serviceId ? `${sender.name} (${sender.addresses.length === 1 ? '1 address' : `${sender.addresses.length} addresses`})` : sender.name;
  return {
    type: AlertType.MailNewSender,
    severity: alertTypeSeverity.mail_new_sender,
    title: `New sender for ${domain}: ${sender.name}`,
    message:
      `On ${day}, ${from} sent ${count(sender.messages)} messages as ${domain}; no mail from it was reported in the previous ${T.newSenderLookbackDays} days. ` +
      `${percent(dmarcPass)} of it passed DMARC. If you did not set this sender up, someone may be sending mail in the domain's name.`,
    details: {
      senderId: sender.senderId,
      day,
      name: sender.name,
      serviceId: sender.serviceId,
      addresses,
      addressCount: sender.addresses.length,
      messages: sender.messages,
      dmarcPass,
    },
    conditionKey: null,
  };
}

export interface TlsFailureType {
  resultType: string;
  failedSessions: number;
  mxHosts: string[];
}

/** The day's sessions and its failures by result type (MX hosts busiest first). */
export function tlsFailuresOf(rows: readonly TlsDayRow[]): { sessions: number; failures: Map<string, TlsFailureType> } {
  let sessions = 0;
  const byType = new Map<string, TlsFailureType & { hosts: Map<string, number> }>();
  for (const row of rows) {
    sessions += row.sessions;
    if (row.resultType === TLS_SUCCESS_RESULT) continue;
    const type = byType.get(row.resultType) ?? { resultType: row.resultType, failedSessions: 0, mxHosts: [], hosts: new Map<string, number>() };
    type.failedSessions += row.sessions;
    if (row.mxHost !== '') type.hosts.set(row.mxHost, (type.hosts.get(row.mxHost) ?? 0) + row.sessions);
    byType.set(row.resultType, type);
  }
  const failures = new Map<string, TlsFailureType>();
  for (const [key, { hosts, ...type }] of byType) {
    const mxHosts = [...hosts.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([host]) => host);
    failures.set(key, { ...type, mxHosts });
  }
  return { sessions, failures };
}

/** Each result type is judged on its own: its failed sessions against all of the day's sessions. */
export function tlsFailureAlert(domain: string, day: string, sessions: number, failure: TlsFailureType): MailAlertRow | null {
  if (failure.failedSessions < T.tlsMinFailedSessions || failure.failedSessions < T.tlsMinShare * sessions) return null;
  const failureShare = share(failure.failedSessions, sessions);
  const hosts = failure.mxHosts.length > 0 ? ` (${failure.mxHosts.slice(0, 3).join(', ')}${failure.mxHosts.length > 3 ? ', …' : ''})` : '';
  return {
    type: AlertType.TlsRptFailures,
    severity: alertTypeSeverity.tls_rpt_failures,
    title: `TLS failures delivering to ${domain}: ${failure.resultType}`,
    message:
      `On ${day}, ${count(failure.failedSessions)} of ${count(sessions)} TLS sessions to ${domain}'s mail servers${hosts} failed with "${failure.resultType}" (${percent(failureShare)}). ` +
      `Senders that require TLS (MTA-STS or DANE) may hold or bounce mail to the domain until it is fixed.`,
    details: { day, resultType: failure.resultType, failedSessions: failure.failedSessions, sessions, failureShare, mxHosts: failure.mxHosts.slice(0, MAX_ADDRESSES) },
    conditionKey: tlsConditionKey(failure.resultType),
  };
}

export function reportsStoppedAlert(domain: string, lastReceivedAt: Date, reportDays: number, now: Date): MailAlertRow {
  const hours = Math.floor((now.getTime() - lastReceivedAt.getTime()) / 3_600_000);
  const last = `${lastReceivedAt.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
  return {
    type: AlertType.MailReportsStopped,
    severity: alertTypeSeverity.mail_reports_stopped,
    title: `DMARC reports stopped arriving for ${domain}`,
    message:
      `No DMARC aggregate report has arrived for ${domain} since ${last} (${hours} hours), though reports came in on ${reportDays} of the previous ${T.stoppedLookbackDays} days. ` +
      `Check that the domain's DMARC record is still published and still lists its Sendwell report address (rua).`,
    details: { lastReceivedAt: lastReceivedAt.toISOString(), reportDays, silentHours: hours },
    conditionKey: AlertType.MailReportsStopped,
  };
}
