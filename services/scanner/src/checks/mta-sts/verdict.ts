import type { Finding, MtaStsDetails } from '@sendwell/contracts';
import { mostSevereRecommendation } from '../recommendation.js';
import type { CheckResult } from '../types.js';
import type { PolicyFetch } from './policy-fetch.js';
import type { MxCoverage, StsPolicy } from './policy.js';

type MtaStsResult = CheckResult<MtaStsDetails>;

/** Everything the check learned about one domain, for the verdict and the details. */
export interface MtaStsOutcome {
  domain: string;
  /** The one `v=STSv1` record (null when there are none or several). */
  record: string | null;
  records: string[];
  id: string | null;
  fetch: PolicyFetch | null;
  policy: StsPolicy | null;
  coverage: MxCoverage[];
  findings: Finding[];
  /** A lookup the verdict depends on failed (the policy host's addresses, the MX hosts). */
  undetermined: boolean;
}

const DAY = 86_400;

function details(outcome: MtaStsOutcome): MtaStsDetails & { findings: Finding[] } {
  const { fetch, policy } = outcome;
  return {
    record: outcome.record,
    records: outcome.records,
    id: outcome.id,
    policyUrl: fetch?.url ?? null,
    policyFetch: fetch
      ? {
          address: fetch.address,
          httpStatus: fetch.response?.status ?? null,
          contentType: fetch.response?.contentType ?? null,
          error: fetch.unreachable ?? fetch.dnsError ?? null,
        }
      : null,
    policy: policy ? { version: policy.version, mode: policy.mode, maxAge: policy.maxAge, mx: policy.mx } : null,
    mxCoverage: outcome.coverage.map((entry) => ({ ...entry })),
    findings: outcome.findings,
  };
}

function cardValue(outcome: MtaStsOutcome): string | null {
  const { policy } = outcome;
  if (policy?.mode) return policy.maxAge !== null ? `${policy.mode}, max_age ${policy.maxAge}` : policy.mode;
  return outcome.record ?? (outcome.records.length > 0 ? outcome.records.join(' | ') : null);
}

function lifetime(seconds: number): string {
  return seconds >= DAY ? `${Math.floor(seconds / DAY)} day${seconds >= 2 * DAY ? 's' : ''}` : `${seconds} seconds`;
}

/** An error decides; then a lookup that failed; then warnings; otherwise the policy is enforced as published. */
export function mtaStsVerdict(outcome: MtaStsOutcome): MtaStsResult {
  const { findings } = outcome;
  const top = findings.find((finding) => finding.severity === 'error') ?? (outcome.undetermined ? undefined : findings.find((finding) => finding.severity === 'warning'));
  const base = { type: 'mta_sts' as const, value: cardValue(outcome), details: details(outcome) };
  if (top) {
    return { ...base, status: top.severity === 'error' ? 'error' : 'warning', message: top.message, recommendation: mostSevereRecommendation(findings) };
  }
  if (outcome.undetermined) {
    const why = findings.find((finding) => finding.severity === 'info');
    return { ...base, status: 'unknown', message: why?.message ?? 'MTA-STS could not be checked completely.', recommendation: null };
  }
  const covered = outcome.coverage.length;
  const maxAge = outcome.policy?.maxAge;
  return {
    ...base,
    status: 'valid',
    message: `MTA-STS is enforced${covered > 0 ? ` for all ${covered} MX host${covered === 1 ? '' : 's'}` : ''}${maxAge ? `, and senders keep the policy for ${lifetime(maxAge)}` : ''}.`,
    recommendation: null,
  };
}

export function unknownResult(domain: string, reason: string): MtaStsResult {
  return {
    type: 'mta_sts',
    status: 'unknown',
    value: null,
    message: `MTA-STS could not be checked: the DNS lookup of _mta-sts.${domain} ${reason}.`,
    recommendation: null,
    details: { record: null, records: [], id: null, policyUrl: null, policy: null, mxCoverage: [], findings: [] },
  };
}

export function missingResult(domain: string, finding: Finding): MtaStsResult {
  return {
    type: 'mta_sts',
    status: 'missing',
    value: null,
    message: `No MTA-STS policy is published for ${domain}.`,
    recommendation: finding.recommendation ?? null,
    details: { record: null, records: [], id: null, policyUrl: null, policy: null, mxCoverage: [], findings: [finding] },
  };
}
