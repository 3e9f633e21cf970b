import type { Finding } from '@sendwell/contracts';
import type { DmarcPolicy, DmarcRecord } from './record.js';

/** What the record means for mail from the scanned domain, and the findings on that policy. */

export type PolicySource = 'domain' | 'organizational';

export interface AppliedPolicy {
  /** The policy for subdomains: `sp=`, else `p=`. */
  subdomainPolicy: DmarcPolicy | null;
  /** What receivers apply to mail from this very domain. */
  effectivePolicy: DmarcPolicy | null;
  /** Share of failing mail the policy applies to (default 100). */
  pct: number;
}

const POLICY_STRENGTH: Record<DmarcPolicy, number> = { none: 0, quarantine: 1, reject: 2 };

export function appliedPolicy(parsed: DmarcRecord, source: PolicySource): AppliedPolicy {
  const subdomainPolicy = parsed.subdomainPolicy ?? parsed.policy;
  // A subdomain without its own record gets the organisational record's sp= (§6.6.3, §6.3 "sp").
  const effectivePolicy = source === 'organizational' ? subdomainPolicy : parsed.policy;
  return { subdomainPolicy, effectivePolicy, pct: parsed.pct ?? 100 };
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
export function policyFindings(parsed: DmarcRecord, applied: AppliedPolicy, source: PolicySource, orgDomain: string): Finding[] {
  return [
    ...monitoringOnlyFindings(parsed, applied, source),
    ...weakerSubdomainFindings(parsed, source),
    ...partialPctFindings(applied),
    ...noAggregateReportFindings(parsed, orgDomain),
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

function noAggregateReportFindings(parsed: DmarcRecord, orgDomain: string): Finding[] {
  if (parsed.rua.length > 0) return [];
  return [
    {
      code: 'DMARC_NO_RUA',
      severity: 'warning',
      message: 'No rua= address: you get no aggregate reports, so you cannot see who sends mail as your domain.',
      rfc: 'RFC 7489 §7.2',
      recommendation: `Add "rua=mailto:dmarc@${orgDomain}" (or your DMARC report service's address).`,
      tag: 'rua',
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
