import type { BimiDetails, CheckType, Finding } from '@sendwell/contracts';
import { mostSevereRecommendation } from '../recommendation.js';
import type { CheckResult } from '../types.js';
import type { DmarcPrecondition } from './dmarc.js';
import { SELECTOR } from './discovery.js';

export type BimiResult = CheckResult<BimiDetails>;

const BIMI_TYPE: CheckType = 'bimi';

/** Everything the check learned, for the verdict and the details. */
export interface BimiOutcome {
  domain: string;
  /** The domain whose record applies (the domain or its organisational domain), null when none. */
  recordDomain: string | null;
  record: string | null;
  logoUrl: string | null;
  authorityUrl: string | null;
  dmarc: DmarcPrecondition | null;
  logo: NonNullable<BimiDetails['logo']> | null;
  certificate: NonNullable<BimiDetails['certificate']> | null;
  /** The logo passed every rule of the profile (null when it was not read). */
  logoValid: boolean | null;
  findings: Finding[];
  /** A lookup the verdict depends on failed (DMARC, the logo or certificate host's addresses). */
  undetermined: boolean;
}

function details(outcome: BimiOutcome): BimiDetails & { findings: Finding[] } {
  const { dmarc } = outcome;
  return {
    record: outcome.record,
    selector: SELECTOR,
    recordDomain: outcome.recordDomain,
    logoUrl: outcome.logoUrl,
    authorityUrl: outcome.authorityUrl,
    dmarc: dmarc ? { policyDomain: dmarc.policyDomain, policy: dmarc.policy, subdomainPolicy: dmarc.subdomainPolicy, pct: dmarc.pct, enforced: dmarc.enforced } : null,
    logo: outcome.logo,
    certificate: outcome.certificate,
    findings: outcome.findings,
  };
}

function cardValue(outcome: BimiOutcome): string | null {
  if (outcome.record === null) return null;
  const logo = outcome.logoValid === true ? 'SVG Tiny PS logo' : outcome.logoValid === false ? 'logo invalid' : outcome.logo ? 'logo unavailable' : 'no usable logo';
  const cert = outcome.certificate?.present ? (outcome.certificate.markType ?? 'certificate') : outcome.authorityUrl ? 'certificate unavailable' : 'no certificate';
  return `${logo}, ${cert}`;
}

/** An error decides; then a lookup that failed; then warnings; otherwise receivers can show the logo. */
export function bimiVerdict(outcome: BimiOutcome): BimiResult {
  const { findings } = outcome;
  const top = findings.find((finding) => finding.severity === 'error') ?? (outcome.undetermined ? undefined : findings.find((finding) => finding.severity === 'warning'));
  const base = { type: BIMI_TYPE, value: cardValue(outcome), details: details(outcome) };
  if (top) {
    return { ...base, status: top.severity === 'error' ? 'error' : 'warning', message: top.message, recommendation: mostSevereRecommendation(findings) };
  }
  if (outcome.undetermined) {
    const why = findings.find((finding) => finding.severity === 'info');
    return { ...base, status: 'unknown', message: why?.message ?? 'BIMI could not be checked completely.', recommendation: null };
  }
  const certificate = outcome.certificate;
  const days = certificate?.daysRemaining;
  return {
    ...base,
    status: 'valid',
    message: `BIMI is ready: the SVG Tiny PS logo is verified by a ${certificate?.markType ?? 'Mark Certificate'}${typeof days === 'number' ? ` valid for ${days} more days` : ''}, and DMARC is enforced.`,
    recommendation: null,
  };
}

const emptyDetails = (findings: Finding[], record: string | null = null, recordDomain: string | null = null): BimiDetails & { findings: Finding[] } => ({
  record,
  selector: SELECTOR,
  recordDomain,
  logoUrl: null,
  authorityUrl: null,
  dmarc: null,
  logo: null,
  certificate: null,
  findings,
});

export function unknownResult(name: string, reason: string): BimiResult {
  return { type: BIMI_TYPE, status: 'unknown', value: null, message: `BIMI could not be checked: the DNS lookup of ${name} ${reason}.`, recommendation: null, details: emptyDetails([]) };
}

export function missingResult(domain: string, finding: Finding): BimiResult {
  return {
    type: BIMI_TYPE,
    status: 'missing',
    value: null,
    message: `No BIMI record is published for ${domain}.`,
    recommendation: finding.recommendation ?? null,
    details: emptyDetails([finding]),
  };
}

export function declinedResult(name: string, record: string, recordDomain: string, findings: Finding[]): BimiResult {
  return {
    type: BIMI_TYPE,
    status: 'success',
    value: 'declined',
    message: `${name} explicitly declines BIMI, so receivers show no logo.`,
    recommendation: null,
    details: emptyDetails(findings, record, recordDomain),
  };
}
