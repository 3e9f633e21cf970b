import type { Finding } from '@sendwell/contracts';
import type { CheckContext, CheckResult } from '../types.js';
import { checkDestinations, destinationFindings, type DmarcReportUri } from './destinations.js';
import { discoverPolicy, type PolicyDiscovery } from '../shared/dmarc/discovery.js';
import { appliedPolicy, dmarcbisFindings, inheritanceFindings, policyFindings, type PolicySource } from './findings.js';
import { organizationalDomain } from '../shared/dmarc/org-domain.js';
import { suggestedReportAddress } from './report-address.js';
import { parseDmarcRecord, type Alignment, type DmarcPolicy, type PsdFlag } from '../shared/dmarc/record.js';
import { dmarcVerdict } from './verdict.js';

/**
 * DMARC (RFC 7489, and the DMARCbis tags np, psd and t of RFC 9989): policy discovery as a receiver does it (§6.6.3: the domain's `_dmarc` record,
 * else the Organizational Domain's), every tag parsed, and external report destinations verified
 * (§7.1) so the user learns when reports they asked for will never be sent.
 */

export interface DmarcDetails extends Record<string, unknown> {
  /** `p=` of the record that applies (null when none or invalid). */
  policy: DmarcPolicy | null;
  /** The policy for subdomains: `sp=`, else `p=`. */
  subdomainPolicy: DmarcPolicy | null;
  /** What receivers apply to mail from this very domain (`sp`/`p` of the org record when inherited). */
  effectivePolicy: DmarcPolicy | null;
  /** The policy for non-existent subdomains: `np=` (RFC 9989 §4.7, first RFC 9091), else `sp=`, else `p=`. */
  nonExistentSubdomainPolicy?: DmarcPolicy | null;
  /** `t=y`: the policy is in testing; DMARCbis receivers apply `testingPolicy` instead. */
  testing?: boolean;
  /** One level less than `effectivePolicy`, what DMARCbis receivers apply under t=y (null when not testing). */
  testingPolicy?: DmarcPolicy | null;
  /** `psd=` (RFC 9989 §4.7): y, n, or u (the default: let the tree walk decide). */
  publicSuffixDomain?: PsdFlag;
  /** Share of failing mail the policy applies to (default 100); pct= is removed in RFC 9989, RFC 7489 receivers still read it. */
  pct?: number;
  /** The record that applies (null when none, or when several make DMARC void). */
  record: string | null;
  /** Every DMARC-looking TXT record at the `_dmarc` name that was used. */
  records: string[];
  source: PolicySource | null;
  /** Where the applying record lives (`_dmarc.{policyDomain}`). */
  policyDomain: string | null;
  orgDomain: string;
  alignment?: { dkim: Alignment; spf: Alignment };
  rua: DmarcReportUri[];
  ruf: DmarcReportUri[];
  failureOptions?: string[];
  reportFormat?: string[];
  reportInterval?: number;
  findings: Finding[];
}

type Discovered = Extract<PolicyDiscovery, { outcome: 'answered' }>;

export const dmarcCheck = async (ctx: CheckContext): Promise<CheckResult<DmarcDetails>> => {
  const domain = ctx.domain;
  const orgDomain = organizationalDomain(domain);
  const found = await discoverPolicy(ctx, domain, orgDomain);
  if (found.outcome === 'failed') return unknownResult(found.policyDomain, found.reason, orgDomain);
  if (found.valid.length === 0 && found.misplaced.length === 0) return missingResult(domain, orgDomain, suggestedReportAddress(ctx, orgDomain));
  if (found.valid.length > 1) return multipleRecordsResult(found, orgDomain);
  return policyResult(ctx, found, orgDomain);
};

/** The one record that applies: parsed, its policy judged, its report destinations verified. */
async function policyResult(ctx: CheckContext, found: Discovered, orgDomain: string): Promise<CheckResult<DmarcDetails>> {
  const { source, policyDomain } = found;
  const record = (found.valid[0] ?? found.misplaced[0]) as string;
  const parsed = parseDmarcRecord(record);
  const applied = appliedPolicy(parsed, source);
  const [rua, ruf] = await Promise.all([checkDestinations(ctx, parsed.rua, policyDomain), checkDestinations(ctx, parsed.ruf, policyDomain)]);
  const findings = [
    ...parsed.findings,
    ...inheritanceFindings(ctx.domain, orgDomain, parsed, source),
    ...policyFindings(parsed, applied, source, suggestedReportAddress(ctx, orgDomain)),
    ...dmarcbisFindings(parsed, applied, policyDomain),
    ...destinationFindings(rua, policyDomain, 'rua'),
    ...destinationFindings(ruf, policyDomain, 'ruf'),
  ];
  const details: DmarcDetails = {
    policy: parsed.policy,
    subdomainPolicy: applied.subdomainPolicy,
    effectivePolicy: applied.effectivePolicy,
    nonExistentSubdomainPolicy: applied.nonExistentPolicy,
    testing: applied.testing,
    testingPolicy: applied.testingPolicy,
    publicSuffixDomain: parsed.psd,
    pct: applied.pct,
    record,
    records: [...found.valid, ...found.misplaced],
    source,
    policyDomain,
    orgDomain,
    alignment: { dkim: parsed.adkim, spf: parsed.aspf },
    rua,
    ruf,
    failureOptions: parsed.failureOptions,
    reportFormat: parsed.reportFormat,
    reportInterval: parsed.reportInterval,
    findings,
  };
  const { status, message, recommendation } = dmarcVerdict(findings, applied, source, orgDomain);
  return { type: 'dmarc', status, value: record, message, recommendation, details };
}

function emptyDetails(orgDomain: string, findings: Finding[], records: string[] = []): DmarcDetails {
  return {
    policy: null,
    subdomainPolicy: null,
    effectivePolicy: null,
    record: null,
    records,
    source: null,
    policyDomain: null,
    orgDomain,
    rua: [],
    ruf: [],
    findings,
  };
}

function unknownResult(policyDomain: string, reason: string, orgDomain: string): CheckResult<DmarcDetails> {
  return {
    type: 'dmarc',
    status: 'unknown',
    value: null,
    message: `DMARC could not be checked: the DNS lookup of _dmarc.${policyDomain} ${reason === 'timed out' ? 'timed out' : `failed (${reason})`}.`,
    recommendation: null,
    details: emptyDetails(orgDomain, []),
  };
}

const SUGGESTED_RECORD = (domain: string, reportAddress: string) =>
  `Publish a TXT record at _dmarc.${domain}: "v=DMARC1; p=none; rua=mailto:${reportAddress}", then move to p=quarantine and p=reject once the reports show your mail passes.`;

function missingResult(domain: string, orgDomain: string, reportAddress: string): CheckResult<DmarcDetails> {
  const finding: Finding = {
    code: 'DMARC_MISSING',
    severity: 'error',
    message:
      orgDomain === domain
        ? `No DMARC record at _dmarc.${domain}, so receivers apply no policy to mail forging this domain.`
        : `No DMARC record at _dmarc.${domain} nor at the organisational domain _dmarc.${orgDomain}.`,
    rfc: 'RFC 7489 §6.6.3',
    recommendation: SUGGESTED_RECORD(orgDomain, reportAddress),
  };
  return {
    type: 'dmarc',
    status: 'missing',
    value: null,
    message: `No DMARC record found for ${domain}.`,
    recommendation: SUGGESTED_RECORD(orgDomain, reportAddress),
    details: emptyDetails(orgDomain, [finding]),
  };
}

/** Several records at one name void DMARC (§6.6.3): receivers apply none of them. */
function multipleRecordsResult({ valid, misplaced, source, policyDomain }: Discovered, orgDomain: string): CheckResult<DmarcDetails> {
  const recommendation = `Merge them into exactly one TXT record at _dmarc.${policyDomain}.`;
  const finding: Finding = {
    code: 'DMARC_MULTIPLE_RECORDS',
    severity: 'error',
    message: `_dmarc.${policyDomain} has ${valid.length} DMARC records, so receivers apply none of them.`,
    rfc: 'RFC 7489 §6.6.3',
    recommendation,
  };
  return {
    type: 'dmarc',
    status: 'error',
    value: valid.join(' | '),
    message: `${valid.length} DMARC records are published at _dmarc.${policyDomain}, which voids DMARC.`,
    recommendation,
    details: { ...emptyDetails(orgDomain, [finding], [...valid, ...misplaced]), source, policyDomain },
  };
}
