import { isDomainOrBelow, normaliseDomain } from '../domain-names.js';
import { refuse } from '../refusal.js';
import type { FailureReport } from './types.js';

/** Refuses a failure report about another domain than the one its address was issued for (one without a domain is kept). */
export function assertFailureDomain(report: FailureReport, issuedFor: string): void {
  const reported = report.reportedDomain === null ? '' : normaliseDomain(report.reportedDomain);
  const owner = normaliseDomain(issuedFor);
  if (!reported || isDomainOrBelow(reported, owner)) return;
  refuse('POLICY_DOMAIN_MISMATCH', `The failure report is about ${reported.slice(0, 255)}, not ${owner}, so it was not read.`);
}
