import { DOMAIN_NOT_FOUND, features, requirementsTurnedUnmet, SENDER_REQUIREMENTS_PLAN_MESSAGE, type SenderRequirements } from '@sendwell/contracts';
import { alertEventsOf, queueAlertEvents } from '@sendwell/scan-engine';
import { forbidden, notFound } from '@sendwell/server-kit';
import type { ReportDomain } from '../addresses/report-domain.repository.js';
import { MailFlowRepository } from '../mail-flow/mail-flow.repository.js';
import { MailFlowAlertRepository } from '../alerts/mail-flow-alert.repository.js';
import type { Deps } from '../deps.js';
import { gatherEvidence } from './gather-evidence.js';
import { requirementConditionKey, requirementUnmetAlert } from './requirement-alert.js';
import { SenderRequirementsRepository } from './sender-requirements.repository.js';
import { judgeSenderRequirements } from './verdict.js';

export interface SenderRequirementsUser {
  id: number;
  planType: string;
}

export type RefreshOutcome = { state: 'skipped' } | { state: 'judged'; raised: number; resolved: number };

/**
 * The domain's sender requirements verdict (issue 26). Reading it judges it afresh and keeps it, as the
 * refresh job does: whichever comes first after a change raises the alert, and the kept verdict stays
 * the latest the reports render.
 */
export class SenderRequirementsService {
  constructor(private readonly deps: Pick<Deps, 'db' | 'queues' | 'logger' | 'reportDomains' | 'counters'>) {}

  /** Plan first (403), then ownership (404, another user's domain too). */
  async get(user: SenderRequirementsUser, domainId: number, now = new Date()): Promise<SenderRequirements> {
    if (!features.senderRequirements(user.planType)) throw forbidden(SENDER_REQUIREMENTS_PLAN_MESSAGE, { requiresUpgrade: true });
    const domain = await this.deps.reportDomains.findOwned(user.id, domainId);
    if (!domain) throw notFound(DOMAIN_NOT_FOUND);
    return (await this.judge(domain, now)).verdict;
  }

  /** The job: judged for the owner's plan; a deleted domain or one whose plan has no verdict is skipped. */
  async refresh(domainId: number, now = new Date()): Promise<RefreshOutcome> {
    const domain = await this.deps.reportDomains.findActive(domainId);
    if (!domain || !features.senderRequirements(domain.planType)) return { state: 'skipped' };
    const { raised, resolved } = await this.judge(domain, now);
    return { state: 'judged', raised: raised.length, resolved: resolved.length };
  }

  /**
   * Judges, keeps and alerts in one transaction holding the domain's row, so two judgements at once
   * cannot both compare with the same kept verdict and raise the same alert; delivery is queued after
   * the commit.
   */
  private async judge(domain: ReportDomain, now: Date): Promise<{ verdict: SenderRequirements; raised: number[]; resolved: number[] }> {
    const outcome = await this.deps.db.transaction().execute(async (trx) => {
      const alerts = new MailFlowAlertRepository(trx);
      await alerts.lockDomain(domain.id);
      const repo = new SenderRequirementsRepository(trx);
      const verdict = judgeSenderRequirements(await gatherEvidence({ requirements: repo, mailFlow: new MailFlowRepository(trx) }, domain, now));
      const previous = await repo.storedVerdict(domain.id);
      await repo.storeVerdict(verdict);
      const raised: number[] = [];
      const resolved: number[] = [];
      if (!features.alertsRecorded(domain.planType)) return { verdict, raised, resolved };

      const alerted = { domainId: domain.id, name: domain.name, userId: domain.userId };
      for (const id of requirementsTurnedUnmet(previous, verdict)) {
        const requirement = verdict.requirements.find((r) => r.id === id);
        // An open alert of the same requirement makes the insert a no-op (null): never twice while open.
        const alertId = requirement ? await alerts.insert(alerted, requirementUnmetAlert(domain.name, requirement), now) : null;
        if (alertId !== null) raised.push(alertId);
      }
      const met = new Set(verdict.requirements.filter((r) => r.status === 'met').map((r) => requirementConditionKey(r.id)));
      for (const open of await repo.openAlerts(domain.id)) {
        if (met.has(open.conditionKey) && (await alerts.resolve(open.id, now))) resolved.push(open.id);
      }
      return { verdict, raised, resolved };
    });
    await queueAlertEvents(this.deps.queues, alertEventsOf(outcome.raised, outcome.resolved), this.deps.logger, this.deps.counters);
    return outcome;
  }
}
