/**
 * Mail-flow alerts (issue 25), run hourly by the intake worker:
 * - for each alerted domain that received a report in the last 2 hours (the overlap covers a late or
 *   retried run), the days those reports covered: new senders and DMARC failure spikes from aggregate
 *   reports, TLS failures by result type from TLS-RPT;
 * - for each alerted domain with aggregate reports in the last 14 days: reports stopped.
 * Each domain's alerts are decided and written in one transaction holding its row, then delivered.
 * Safe to run again: a condition is raised only without an open alert of its key and never again for a
 * day already alerted, a new sender only without an alert naming it within 30 days of that day.
 */
import { AlertType, MAIL_FLOW_ALERT_THRESHOLDS as T } from '@sendwell/contracts';
import type { Database } from '@sendwell/db';
import { alertEventsOf, queueAlertEvents } from '@sendwell/scan-engine';
import type { Logger, Queues, SystemCounters } from '@sendwell/server-kit';
import {
  addDays,
  failureSpike,
  isoDayOf,
  newSenderAlert,
  reportsStoppedAlert,
  senderAliases,
  sendersOf,
  tlsConditionKey,
  tlsFailureAlert,
  tlsFailuresOf,
} from './mail-flow-alert-rules.js';
import { MailFlowAlertRepository, type AlertedDomain, type MailAlertRow, type OpenMailAlert, type ReportingDomain } from './mail-flow-alert.repository.js';

const HOUR_MS = 3_600_000;
/** Reports received this recently are evaluated: twice the hourly cadence. */
const RECENT_MS = 2 * HOUR_MS;
/** Days further back than this in a report's period are not evaluated (a late report of an old day). */
const MAX_DAYS_BACK = 14;
/** Days of reports a domain needs before any of its senders can be new. */
const LEARNING_DAYS = 7;

interface DomainWork extends AlertedDomain {
  dmarcDays: string[];
  tlsDays: string[];
}

interface Outcome {
  raised: number[];
  resolved: number[];
}

export class MailFlowAlerts {
  private readonly repo: MailFlowAlertRepository;

  constructor(
    private readonly db: Database,
    private readonly queues: Queues,
    private readonly logger: Logger,
    private readonly counters?: SystemCounters,
  ) {
    this.repo = new MailFlowAlertRepository(db);
  }

  async evaluate(now = new Date()): Promise<{ raised: number; resolved: number }> {
    const today = isoDayOf(now);
    const total = { raised: 0, resolved: 0 };
    let failed = 0;
    // One domain's error is logged and the others still run; the job fails at the end so it is retried.
    const run = async (domain: AlertedDomain, work: (trx: MailFlowAlertRepository) => Promise<Outcome>) => {
      try {
        const outcome = await this.db.transaction().execute(async (trx) => {
          const repo = new MailFlowAlertRepository(trx);
          await repo.lockDomain(domain.domainId);
          return work(repo);
        });
        total.raised += outcome.raised.length;
        total.resolved += outcome.resolved.length;
        await queueAlertEvents(this.queues, alertEventsOf(outcome.raised, outcome.resolved), this.logger, this.counters);
      } catch (err) {
        failed++;
        this.logger.error({ err, domainId: domain.domainId }, 'mail-flow alerts of a domain failed');
      }
    };

    for (const domain of await this.recentWork(now, today)) await run(domain, (repo) => this.evaluateDays(repo, domain, now));
    const since = new Date(now.getTime() - T.stoppedLookbackDays * 24 * HOUR_MS);
    for (const domain of await this.repo.reportingDomains(since, now)) {
      if (this.stoppedChange(domain, now) !== null) await run(domain, (repo) => this.evaluateStopped(repo, domain, now));
    }

    this.logger.info({ ...total, failed }, 'mail-flow alerts evaluated');
    if (failed > 0) throw new Error(`mail-flow alerts failed for ${failed} domain(s)`);
    return total;
  }

  private async recentWork(now: Date, today: string): Promise<DomainWork[]> {
    const days = await this.repo.recentReportDays(new Date(now.getTime() - RECENT_MS), now, addDays(today, -MAX_DAYS_BACK), today);
    const byDomain = new Map<number, DomainWork>();
    for (const d of days) {
      const work = byDomain.get(d.domainId) ?? { domainId: d.domainId, name: d.name, userId: d.userId, dmarcDays: [], tlsDays: [] };
      (d.kind === 'aggregate' ? work.dmarcDays : work.tlsDays).push(d.day);
      byDomain.set(d.domainId, work);
    }
    return [...byDomain.values()];
  }

  /** Days in order, so a later day resolves what an earlier one raised. */
  private async evaluateDays(repo: MailFlowAlertRepository, domain: DomainWork, now: Date): Promise<Outcome> {
    const outcome: Outcome = { raised: [], resolved: [] };
    const open = new Map<string, OpenMailAlert>((await repo.openAlerts(domain.domainId)).map((a) => [a.conditionKey, a]));
    const raise = async (alert: MailAlertRow) => {
      const id = await repo.insert(domain, alert, now);
      if (id === null) return;
      outcome.raised.push(id);
      if (alert.conditionKey) open.set(alert.conditionKey, { id, conditionKey: alert.conditionKey, day: String(alert.details.day) });
    };
    const resolve = async (alert: OpenMailAlert) => {
      if (await repo.resolve(alert.id, now)) outcome.resolved.push(alert.id);
      open.delete(alert.conditionKey);
    };

    for (const day of domain.dmarcDays) {
      await this.failureSpike(repo, domain, day, open, raise, resolve);
      await this.newSenders(repo, domain, day, raise);
    }
    for (const day of domain.tlsDays) await this.tlsFailures(repo, domain, day, open, raise, resolve);
    return outcome;
  }

  private async failureSpike(
    repo: MailFlowAlertRepository,
    domain: DomainWork,
    day: string,
    open: Map<string, OpenMailAlert>,
    raise: (alert: MailAlertRow) => Promise<void>,
    resolve: (alert: OpenMailAlert) => Promise<void>,
  ): Promise<void> {
    const series = await repo.dmarcDaily(domain.domainId, addDays(day, -T.spikeBaselineDays), day);
    if (!series.has(day)) return;
    const { spiking, alert } = failureSpike(domain.name, day, series);
    const current = open.get(AlertType.MailFailureSpike);
    if (current) {
      if (!spiking && current.day !== null && day > current.day) await resolve(current);
      return;
    }
    if (alert && !(await repo.conditionAlertedSince(domain.domainId, AlertType.MailFailureSpike, day))) await raise(alert);
  }

  /**
   * Senders of the day not seen in the previous 30. A domain whose reports began less than a week
   * before the day is still learning its senders: every one would look new.
   */
  private async newSenders(repo: MailFlowAlertRepository, domain: DomainWork, day: string, raise: (alert: MailAlertRow) => Promise<void>): Promise<void> {
    const lookbackFrom = addDays(day, -T.newSenderLookbackDays);
    const first = await repo.firstDmarcDay(domain.domainId, lookbackFrom, addDays(day, -1));
    if (first === null || first > addDays(day, -LEARNING_DAYS)) return;
    const busy = sendersOf(await repo.sourcesOn(domain.domainId, day)).filter((s) => s.messages >= T.newSenderMessages);
    if (busy.length === 0) return;
    const seen = await repo.sendersSeen(
      domain.domainId,
      lookbackFrom,
      addDays(day, -1),
      busy.map((s) => s.senderId),
    );
    for (const sender of busy) {
      if (seen.has(sender.senderId)) continue;
      if (await repo.newSenderAlerted(domain.domainId, senderAliases(sender), lookbackFrom, addDays(day, T.newSenderLookbackDays))) continue;
      await raise(newSenderAlert(domain.name, day, sender));
    }
  }

  private async tlsFailures(
    repo: MailFlowAlertRepository,
    domain: DomainWork,
    day: string,
    open: Map<string, OpenMailAlert>,
    raise: (alert: MailAlertRow) => Promise<void>,
    resolve: (alert: OpenMailAlert) => Promise<void>,
  ): Promise<void> {
    const { sessions, failures } = tlsFailuresOf(await repo.tlsDay(domain.domainId, day));
    if (sessions === 0) return;
    for (const failure of failures.values()) {
      const alert = tlsFailureAlert(domain.name, day, sessions, failure);
      if (!alert || open.has(tlsConditionKey(failure.resultType))) continue;
      if (!(await repo.conditionAlertedSince(domain.domainId, tlsConditionKey(failure.resultType), day))) await raise(alert);
    }
    // A later day with none of a type resolves it; one with fewer, under the thresholds, does not yet.
    const prefix = tlsConditionKey('');
    for (const current of [...open.values()]) {
      if (!current.conditionKey.startsWith(prefix) || current.day === null || day <= current.day) continue;
      if (!failures.has(current.conditionKey.slice(prefix.length))) await resolve(current);
    }
  }

  /** 'raise' when reports went quiet after arriving regularly, 'resolve' when one arrived since the alert, else null. */
  private stoppedChange(domain: ReportingDomain, now: Date): 'raise' | 'resolve' | null {
    const silent = now.getTime() - domain.lastReceivedAt.getTime() >= T.stoppedAfterHours * HOUR_MS;
    if (domain.openAlertId === null) return silent && domain.reportDays >= T.stoppedMinReportDays ? 'raise' : null;
    return silent ? null : 'resolve';
  }

  private async evaluateStopped(repo: MailFlowAlertRepository, domain: ReportingDomain, now: Date): Promise<Outcome> {
    const outcome: Outcome = { raised: [], resolved: [] };
    // Re-read under the lock: another run may have acted since the candidates were listed.
    const current = (await repo.openAlerts(domain.domainId)).find((a) => a.conditionKey === AlertType.MailReportsStopped);
    const change = this.stoppedChange({ ...domain, openAlertId: current?.id ?? null }, now);
    if (change === 'raise') {
      const id = await repo.insert(domain, reportsStoppedAlert(domain.name, domain.lastReceivedAt, domain.reportDays, now), now);
      if (id !== null) outcome.raised.push(id);
    } else if (change === 'resolve' && current && (await repo.resolve(current.id, now))) {
      outcome.resolved.push(current.id);
    }
    return outcome;
  }
}
