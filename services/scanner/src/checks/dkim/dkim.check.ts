import type { Finding } from '@sendwell/contracts';
import type { CheckContext, CheckResult } from '../types.js';
import { probeSelectors } from './probe.js';
import { planSelectors } from './selectors.js';
import { tallyProbes, type DkimRecordDetails } from './tally.js';
import { dkimOutcome, dkimVerdict, overallFindings } from './verdict.js';

/**
 * DKIM (RFC 6376): probe the user's selectors, those the DMARC reports saw signing, and the common ones at `{selector}._domainkey.{domain}`
 * concurrently, and judge every key record found.
 */

export interface DkimDetails extends Record<string, unknown> {
  records: DkimRecordDetails[];
  /** Every selector asked about: the user's, the reported ones, then the common ones. */
  selectorsChecked: string[];
  /** Selectors whose query timed out or failed, so their state is unknown. */
  selectorsFailed: string[];
  findings: Finding[];
}

export const dkimCheck = async (ctx: CheckContext): Promise<CheckResult<DkimDetails>> => {
  const plan = planSelectors(ctx.dkimSelectors, ctx.reportedDkimSelectors ?? [], ctx.domain);
  const probes = await probeSelectors(ctx, plan);
  const tally = tallyProbes(ctx.domain, probes);
  const outcome = dkimOutcome(plan, probes, tally);
  const findings = [...plan.findings, ...tally.findings, ...overallFindings(outcome, plan, tally)];
  const { status, value, message, recommendation } = dkimVerdict(outcome, findings, plan, tally);
  const details: DkimDetails = { records: tally.records, selectorsChecked: plan.selectorsChecked, selectorsFailed: tally.selectorsFailed, findings };
  return { type: 'dkim', status, value, message, recommendation, details };
};
