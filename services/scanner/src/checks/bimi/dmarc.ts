import type { Finding } from '@sendwell/contracts';
import { discoverPolicy } from '../shared/dmarc/discovery.js';
import { organizationalDomain } from '../shared/dmarc/org-domain.js';
import { parseDmarcRecord, type DmarcPolicy } from '../shared/dmarc/record.js';
import type { CheckContext } from '../types.js';
import { DRAFT } from './findings.js';

/**
 * BIMI's DMARC precondition (draft-brand-indicators-for-message-identification §1, §7.1 steps 7 to 9):
 * receivers show no logo unless the DMARC policy of the author domain and of its organisational
 * domain is quarantine or reject, no record sets sp=none, and a quarantine policy applies to all
 * mail (pct=100). Records are found as a receiver finds them (RFC 7489 §6.6.3, shared/dmarc/discovery.ts).
 */

export interface DmarcPrecondition {
  /** The `_dmarc` name whose record applies to the domain (null when the lookup failed). */
  policyDomain: string | null;
  /** What receivers apply to the domain's own mail: p=, or sp= (else p=) of an inherited record. */
  policy: DmarcPolicy | null;
  subdomainPolicy: DmarcPolicy | null;
  pct: number | null;
  /** Null when a lookup failed and the precondition could not be judged. */
  enforced: boolean | null;
  findings: Finding[];
}

interface RecordVerdict {
  policyDomain: string;
  policy: DmarcPolicy | null;
  subdomainPolicy: DmarcPolicy | null;
  pct: number;
  /** Why this record does not satisfy BIMI (empty when it does). */
  faults: string[];
  /** p=reject with pct below 100: allowed by the draft, asked against by some receivers. */
  partialReject: boolean;
}

type Lookup = { failed: string } | { verdict: RecordVerdict; inherited: boolean };

async function judge(ctx: CheckContext, domain: string, orgDomain: string): Promise<Lookup> {
  const found = await discoverPolicy(ctx, domain, orgDomain);
  if (found.outcome === 'failed') return { failed: `the DMARC lookup of _dmarc.${found.policyDomain} ${found.reason === 'timed out' ? 'timed out' : `failed (${found.reason})`}` };
  const { policyDomain } = found;
  const base = { policyDomain, policy: null, subdomainPolicy: null, pct: 100, partialReject: false };
  if (found.valid.length === 0) {
    const where = policyDomain === domain ? `_dmarc.${domain}` : `_dmarc.${domain} or _dmarc.${policyDomain}`;
    return { verdict: { ...base, faults: [`there is no DMARC record receivers read at ${where}`] }, inherited: found.source === 'organizational' };
  }
  if (found.valid.length > 1) return { verdict: { ...base, faults: [`_dmarc.${policyDomain} has ${found.valid.length} DMARC records, which voids DMARC`] }, inherited: found.source === 'organizational' };
  const parsed = parseDmarcRecord(found.valid[0] as string);
  const pct = parsed.pct ?? 100;
  const faults: string[] = [];
  if (parsed.policy !== 'quarantine' && parsed.policy !== 'reject') faults.push(`_dmarc.${policyDomain} has p=${parsed.policy ?? '(missing or invalid)'}`);
  if (parsed.subdomainPolicy === 'none') faults.push(`_dmarc.${policyDomain} has sp=none`);
  if (parsed.policy === 'quarantine' && pct < 100) faults.push(`_dmarc.${policyDomain} quarantines only ${pct}% of failing mail (pct=${pct})`);
  return {
    verdict: { policyDomain, policy: parsed.policy, subdomainPolicy: parsed.subdomainPolicy ?? parsed.policy, pct, faults, partialReject: parsed.policy === 'reject' && pct < 100 },
    inherited: found.source === 'organizational',
  };
}

function notEnforcedFinding(domain: string, faults: string[]): Finding {
  return {
    code: 'BIMI_DMARC_NOT_ENFORCED',
    severity: 'error',
    message: `Receivers show no BIMI logo for ${domain} because its DMARC policy is not enforced: ${faults.join('; ')}.`,
    rfc: `${DRAFT} §7.1`,
    recommendation:
      'Once your DMARC reports show all legitimate mail passes, publish "p=quarantine" (without pct, or pct=100) or "p=reject" at _dmarc of the domain and of its organisational domain, and no "sp=none".',
  };
}

export async function dmarcPrecondition(ctx: CheckContext): Promise<DmarcPrecondition> {
  const domain = ctx.domain;
  const orgDomain = organizationalDomain(domain);
  const own = await judge(ctx, domain, orgDomain);
  // A subdomain with its own record still needs an enforcing record at its organisational domain (§1, §7.1 step 7).
  const org = 'verdict' in own && !own.inherited && orgDomain !== domain ? await judge(ctx, orgDomain, orgDomain) : null;
  const failed = [own, org].find((lookup): lookup is { failed: string } => lookup !== null && 'failed' in lookup);
  if (failed) {
    return {
      policyDomain: 'verdict' in own ? own.verdict.policyDomain : null,
      policy: null,
      subdomainPolicy: null,
      pct: null,
      enforced: null,
      findings: [{ code: 'BIMI_DMARC_LOOKUP_FAILED', severity: 'info', message: `The DMARC precondition of BIMI could not be checked: ${failed.failed}.`, rfc: `${DRAFT} §7.1` }],
    };
  }
  const verdicts = [own, org].flatMap((lookup) => (lookup !== null && 'verdict' in lookup ? [lookup] : []));
  const first = verdicts[0] as { verdict: RecordVerdict; inherited: boolean };
  const faults = verdicts.flatMap((lookup) => lookup.verdict.faults);
  const findings: Finding[] = faults.length > 0 ? [notEnforcedFinding(domain, faults)] : [];
  const partial = verdicts.find((lookup) => lookup.verdict.partialReject);
  if (faults.length === 0 && partial) {
    findings.push({
      code: 'BIMI_DMARC_PCT_PARTIAL',
      severity: 'warning',
      message: `_dmarc.${partial.verdict.policyDomain} rejects only ${partial.verdict.pct}% of failing mail (pct=${partial.verdict.pct}, the rest is quarantined); the BIMI draft accepts it, but some mailbox providers ask for pct=100 before they show a logo.`,
      rfc: `${DRAFT} §7.1`,
      recommendation: 'Remove pct= (or set pct=100) once your DMARC reports show legitimate mail passes.',
    });
  }
  const { verdict, inherited } = first;
  return {
    policyDomain: verdict.policyDomain,
    policy: inherited ? verdict.subdomainPolicy : verdict.policy,
    subdomainPolicy: verdict.subdomainPolicy,
    pct: verdict.pct,
    enforced: faults.length === 0,
    findings,
  };
}
