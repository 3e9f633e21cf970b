import type { Finding } from '@sendwell/contracts';
import { isPublicSuffix } from '../shared/dmarc/org-domain.js';
import type { DmarcPolicy, DmarcRecord } from '../shared/dmarc/record.js';

/** What the record means for mail from the scanned domain, and the findings on that policy. */

export type PolicySource = 'domain' | 'organizational';

export interface AppliedPolicy {
  /** The policy for subdomains: `sp=`, else `p=`. */
  subdomainPolicy: DmarcPolicy | null;
  /** The policy for non-existent subdomains: `np=`, else `sp=`, else `p=` (RFC 9989 §4.7). */
  nonExistentPolicy: DmarcPolicy | null;
  /** What receivers apply to mail from this very domain. */
  effectivePolicy: DmarcPolicy | null;
  /** Share of failing mail the policy applies to (default 100); RFC 7489 receivers only. */
  pct: number;
  /** `t=y`: receivers that follow DMARCbis apply `testingPolicy` instead of `effectivePolicy`. */
  testing: boolean;
  /** What DMARCbis receivers apply under t=y: one level less than `effectivePolicy` (null when not testing). */
  testingPolicy: DmarcPolicy | null;
}

const POLICY_STRENGTH: Record<DmarcPolicy, number> = { none: 0, quarantine: 1, reject: 2 };
/** t=y asks for "the next less strict policy" (RFC 9989 §4.7), what pct=0 meant in RFC 7489 §6.6.4. */
const ONE_LEVEL_LESS: Record<DmarcPolicy, DmarcPolicy> = { none: 'none', quarantine: 'none', reject: 'quarantine' };

export function appliedPolicy(parsed: DmarcRecord, source: PolicySource): AppliedPolicy {
  const subdomainPolicy = parsed.subdomainPolicy ?? parsed.policy;
  // A subdomain without its own record gets the organisational record's sp= (§6.6.3, §6.3 "sp").
  const effectivePolicy = source === 'organizational' ? subdomainPolicy : parsed.policy;
  const testingPolicy = parsed.testing && effectivePolicy ? ONE_LEVEL_LESS[effectivePolicy] : null;
  return {
    subdomainPolicy,
    nonExistentPolicy: parsed.nonExistentPolicy ?? subdomainPolicy,
    effectivePolicy,
    pct: parsed.pct ?? 100,
    testing: parsed.testing,
    testingPolicy,
  };
}

/** A subdomain without a record of its own is told which record applies to it. */
export function inheritanceFindings(domain: string, orgDomain: string, parsed: DmarcRecord, source: PolicySource): Finding[] {
  if (source !== 'organizational') return [];
  return [
    {
      code: 'DMARC_INHERITED_FROM_ORG',
      severity: 'info',
      message: `${domain} has no DMARC record of its own; the record of ${orgDomain} applies, with its ${parsed.subdomainPolicy ? `sp=${parsed.subdomainPolicy}` : `p=${parsed.policy ?? '(none)'} (no sp=)`} for subdomains.`,
      rfc: 'RFC 7489 §6.6.3',
      recommendation: `To set a different policy for ${domain}, publish a record at _dmarc.${domain} or set sp= at _dmarc.${orgDomain}.`,
    },
  ];
}

/** How strong the policy is: monitoring only, weaker subdomains, partial pct, no reports, relaxed alignment. */
export function policyFindings(parsed: DmarcRecord, applied: AppliedPolicy, source: PolicySource, reportAddress: string): Finding[] {
  return [
    ...monitoringOnlyFindings(parsed, applied, source),
    ...weakerSubdomainFindings(parsed, source),
    ...partialPctFindings(applied),
    ...noAggregateReportFindings(parsed, reportAddress),
    ...relaxedAlignmentFindings(parsed),
  ];
}

/** "p=reject; sp=none": the domain is protected, its subdomains are not. */
function hasWeakerSubdomains(parsed: DmarcRecord): boolean {
  return parsed.subdomainPolicy === 'none' && parsed.policy !== null && POLICY_STRENGTH[parsed.policy] > POLICY_STRENGTH.none;
}

function monitoringOnlyFindings(parsed: DmarcRecord, { effectivePolicy }: AppliedPolicy, source: PolicySource): Finding[] {
  // An inheriting subdomain under "p=reject; sp=none" gets the one finding that names sp= as the cause.
  if (effectivePolicy !== 'none' || (source === 'organizational' && hasWeakerSubdomains(parsed))) return [];
  return [
    {
      code: 'DMARC_POLICY_NONE',
      severity: 'warning',
      message: 'The policy is p=none: receivers report failures but still deliver forged mail.',
      rfc: 'RFC 7489 §6.3',
      recommendation:
        'Once the aggregate reports show all your legitimate mail passes SPF or DKIM aligned, move to p=quarantine, then p=reject.',
      tag: 'p',
    },
  ];
}

function weakerSubdomainFindings(parsed: DmarcRecord, source: PolicySource): Finding[] {
  if (!hasWeakerSubdomains(parsed)) return [];
  return [
    {
      code: 'DMARC_SUBDOMAIN_POLICY_NONE',
      severity: 'warning',
      message: `sp=none leaves subdomains${source === 'organizational' ? ', this domain included,' : ''} unprotected although p=${parsed.policy}.`,
      rfc: 'RFC 7489 §6.3',
      recommendation: `Remove sp=none (subdomains then follow p=${parsed.policy}) or set sp=quarantine.`,
      tag: 'sp',
    },
  ];
}

function partialPctFindings({ effectivePolicy, pct }: AppliedPolicy): Finding[] {
  if (pct >= 100 || effectivePolicy === null || effectivePolicy === 'none') return [];
  return [
    {
      code: 'DMARC_PCT_PARTIAL',
      severity: 'warning',
      message: `pct=${pct}: the ${effectivePolicy} policy applies to only ${pct}% of failing mail; the rest is treated one step more leniently.`,
      rfc: 'RFC 7489 §6.6.4',
      recommendation: 'Raise pct to 100 (or remove the tag) once you are confident in your setup.',
      tag: 'pct',
    },
  ];
}

function noAggregateReportFindings(parsed: DmarcRecord, reportAddress: string): Finding[] {
  if (parsed.rua.length > 0) return [];
  return [
    {
      code: 'DMARC_NO_RUA',
      severity: 'warning',
      message: 'No rua= address: you get no aggregate reports, so you cannot see who sends mail as your domain.',
      rfc: 'RFC 7489 §7.2',
      recommendation: `Add "rua=mailto:${reportAddress}" (or your DMARC report service's address).`,
      tag: 'rua',
    },
  ];
}

/**
 * What the DMARCbis tags mean for this record (RFC 9989 §4.7): testing mode, np=none under an
 * enforcing p=, and psd=y on a name that is no public suffix.
 */
export function dmarcbisFindings(parsed: DmarcRecord, applied: AppliedPolicy, policyDomain: string): Finding[] {
  return [...testingModeFindings(applied), ...nonExistentNoneFindings(parsed, policyDomain), ...psdFindings(parsed, policyDomain)];
}

function testingModeFindings({ effectivePolicy, testingPolicy }: AppliedPolicy): Finding[] {
  if (effectivePolicy === null || effectivePolicy === 'none' || testingPolicy === null) return [];
  return [
    {
      code: 'DMARC_TESTING_MODE',
      severity: 'warning',
      message: `t=y puts the ${effectivePolicy} policy in testing mode: receivers that follow DMARCbis apply one level less, so it acts like ${testingPolicy}${testingPolicy === 'none' ? ' (forged mail is delivered)' : ''}; receivers that still follow RFC 7489 ignore t= and apply ${effectivePolicy}.`,
      rfc: 'RFC 9989 §4.7',
      recommendation: `Once the aggregate reports show all your legitimate mail passes SPF or DKIM aligned, remove t=y (or set t=n) so ${effectivePolicy} applies everywhere.`,
      tag: 't',
    },
  ];
}

/** "p=reject; np=none": made-up subdomains (the favourite of spoofers) are left open on purpose. */
function nonExistentNoneFindings(parsed: DmarcRecord, policyDomain: string): Finding[] {
  if (parsed.nonExistentPolicy !== 'none' || parsed.policy === null || parsed.policy === 'none') return [];
  return [
    {
      code: 'DMARC_NP_NONE',
      severity: 'warning',
      message: `np=none leaves non-existent subdomains (names such as invented.${policyDomain} that have no DNS records) unprotected although p=${parsed.policy}.`,
      rfc: 'RFC 9989 §4.7',
      recommendation: 'Set np=reject: no legitimate mail comes from names that do not exist.',
      tag: 'np',
    },
  ];
}

/** psd=y makes DMARCbis receivers treat every subdomain as an organisation of its own (the tree walk, RFC 9989 §4.10). */
function psdFindings(parsed: DmarcRecord, policyDomain: string): Finding[] {
  if (parsed.psd !== 'y' || isPublicSuffix(policyDomain)) return [];
  return [
    {
      code: 'DMARC_PSD_NOT_PUBLIC_SUFFIX',
      severity: 'warning',
      message: `psd=y declares ${policyDomain} a public suffix domain, but it is not on the Public Suffix List: receivers that follow DMARCbis then treat each of its subdomains as an organisation of its own, so relaxed alignment between them no longer passes.`,
      rfc: 'RFC 9989 §4.7',
      recommendation: `Remove psd=y (or set psd=n) unless ${policyDomain} registers names for others, as a public suffix does.`,
      tag: 'psd',
    },
  ];
}

function relaxedAlignmentFindings(parsed: DmarcRecord): Finding[] {
  const relaxed = [parsed.adkim === 'relaxed' ? 'adkim' : null, parsed.aspf === 'relaxed' ? 'aspf' : null].filter(
    (tag): tag is string => tag !== null,
  );
  if (relaxed.length === 0) return [];
  return [
    {
      code: 'DMARC_ALIGNMENT_RELAXED',
      severity: 'info',
      message: `Relaxed alignment (${relaxed.join(', ')}): mail signed or sent from any subdomain of the organisational domain aligns.`,
      rfc: 'RFC 7489 §3.1',
      recommendation: 'Strict alignment (adkim=s, aspf=s) is stricter but breaks mail sent through subdomains; relaxed suits most domains.',
    },
  ];
}
