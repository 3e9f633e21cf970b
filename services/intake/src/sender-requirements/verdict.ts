import {
  SENDER_REQUIREMENT_MAIL_FLOW_DAYS,
  SENDER_REQUIREMENT_TEST_DAYS,
  SENDER_REQUIREMENTS,
  senderRequirementIds,
  type EvidenceSourceState,
  type RequirementEvidence,
  type SenderRequirement,
  type SenderRequirements,
  type SenderRequirementStatus,
} from '@sendwell/contracts';
import { dnsEvidence } from './dns-rules.js';
import type { SourceEvidence, VerdictInput } from './evidence.js';
import { unknownFix, unmetFix } from './fixes.js';
import { count, dayOf, percent } from './format.js';
import { mailFlowEvidence } from './mail-flow-rules.js';
import { mailTestEvidence } from './mail-test-rules.js';

/** Unmet when any evidence is unmet, met when some is met and none unmet, else unknown. */
function statusOf(evidence: readonly RequirementEvidence[]): SenderRequirementStatus {
  if (evidence.some((e) => e.status === 'unmet')) return 'unmet';
  return evidence.length > 0 ? 'met' : 'unknown';
}

function sourceStates(input: VerdictInput): SenderRequirements['sources'] {
  const { dns, mailFlow, mailTest } = input;
  const dnsState: EvidenceSourceState = dns
    ? {
        state: 'used',
        observedAt: dns.completedAt.toISOString(),
        summary: `The scan completed on ${dayOf(dns.completedAt)}: SPF ${dns.spf?.status ?? 'not checked'}, DKIM ${dns.dkim?.status ?? 'not checked'}, DMARC ${dns.dmarc?.status ?? 'not checked'}.`,
      }
    : { state: 'none', summary: 'No scan of the domain has completed yet.' };

  let flowState: EvidenceSourceState;
  if (mailFlow === 'plan') flowState = { state: 'plan', summary: 'Mail flow reports are available on paid plans.' };
  else if (mailFlow === null) {
    flowState = {
      state: 'none',
      summary: `No DMARC aggregate report showed mail from authorised senders in the last ${SENDER_REQUIREMENT_MAIL_FLOW_DAYS} days. Publish your Sendwell report address (rua) in the DMARC record so reports arrive.`,
    };
  } else {
    flowState = {
      state: 'used',
      observedAt: `${mailFlow.to}T00:00:00.000Z`,
      summary: `${count(mailFlow.messages)} messages from authorised senders reported between ${mailFlow.from} and ${mailFlow.to}, ${percent(mailFlow.dmarcPass, mailFlow.messages)} passing DMARC.`,
    };
  }

  let testState: EvidenceSourceState;
  if (mailTest === 'plan') testState = { state: 'plan', summary: 'Test messages (Inbox Testing) are available on the Standard plan and above.' };
  else if (mailTest === null) {
    testState = { state: 'none', summary: `No test message from ${input.domain} in the last ${SENDER_REQUIREMENT_TEST_DAYS} days. Send one to Inbox Testing to check headers, TLS and reverse DNS.` };
  } else {
    testState = {
      state: 'used',
      observedAt: mailTest.receivedAt.toISOString(),
      summary: `The test message received on ${dayOf(mailTest.receivedAt)} scored ${mailTest.analysis.score.value} out of 10.`,
    };
  }
  return { dns: dnsState, mail_flow: flowState, mail_test: testState };
}

/**
 * The sender requirements verdict from the gathered evidence (issue 26). Each requirement takes the
 * evidence every source gives on it, in the order DNS, mail flow, test message; the complaint rate is
 * never measurable here (only the mailbox providers see complaints), so it points to their tools.
 */
export function judgeSenderRequirements(input: VerdictInput): SenderRequirements {
  const bySource: SourceEvidence[] = [
    input.dns ? dnsEvidence(input.dns, input.domain) : {},
    input.mailFlow && input.mailFlow !== 'plan' ? mailFlowEvidence(input.mailFlow, input.domain) : {},
    input.mailTest && input.mailTest !== 'plan' ? mailTestEvidence(input.mailTest) : {},
  ];

  const requirements = senderRequirementIds.map((id): SenderRequirement => {
    const { title, description, providers, links } = SENDER_REQUIREMENTS[id];
    const base = { id, title, description, providers: [...providers], links: links.map((l) => ({ ...l })) };
    if (id === 'complaint_rate') return { ...base, status: 'not_measurable', evidence: [], fix: null };
    const evidence = bySource.flatMap((source) => source[id] ?? []);
    const status = statusOf(evidence);
    const fix = status === 'unmet' ? unmetFix(id, input.domain) : status === 'unknown' ? unknownFix(id, input) : null;
    return { ...base, status, evidence, fix };
  });

  const counts = { met: 0, unmet: 0, unknown: 0, not_measurable: 0 };
  for (const r of requirements) counts[r.status]++;
  return {
    domainId: input.domainId,
    domain: input.domain,
    evaluatedAt: input.evaluatedAt.toISOString(),
    sources: sourceStates(input),
    requirements,
    counts,
  };
}
