import { features, mailFlowRetentionDays, SENDER_REQUIREMENT_MAIL_FLOW_DAYS, SENDER_REQUIREMENT_TEST_DAYS } from '@sendwell/contracts';
import type { ReportDomain } from '../addresses/report-domain.repository.js';
import type { MailFlowRepository } from '../mail-flow/mail-flow.repository.js';
import { addDays, isoDayOf, mailFlowWindow } from '../mail-flow/window.js';
import type { VerdictInput } from './evidence.js';
import { mailFlowFigures } from './mail-flow-figures.js';
import type { SenderRequirementsRepository } from './sender-requirements.repository.js';

const DAY_MS = 86_400_000;

/**
 * Everything the verdict is judged from, for the domain's owner's plan: the latest completed scan; the
 * last 30 days of aggregate reports (no further back than the plan keeps); the latest test message
 * analysed in the last 30 days, when the plan has Inbox Testing.
 */
export async function gatherEvidence(
  repos: { requirements: SenderRequirementsRepository; mailFlow: MailFlowRepository },
  domain: ReportDomain,
  now: Date,
): Promise<VerdictInput> {
  const { requirements: repo, mailFlow } = repos;
  const hasMailFlow = features.mailFlow(domain.planType);
  const hasTests = features.inboxPlacement(domain.planType);
  const window = mailFlowWindow({ from: addDays(isoDayOf(now), 1 - SENDER_REQUIREMENT_MAIL_FLOW_DAYS) }, mailFlowRetentionDays(domain.planType), now);
  const [dns, sources, test] = await Promise.all([
    repo.latestScan(domain.id),
    hasMailFlow ? mailFlow.sources(domain.id, window) : Promise.resolve([]),
    hasTests ? repo.latestTest(domain.id, new Date(now.getTime() - SENDER_REQUIREMENT_TEST_DAYS * DAY_MS)) : Promise.resolve(null),
  ]);
  return {
    domainId: domain.id,
    domain: domain.name,
    evaluatedAt: now,
    dns,
    mailFlow: hasMailFlow ? mailFlowFigures(sources, window) : 'plan',
    mailTest: hasTests ? test : 'plan',
  };
}
