import type { Finding } from '@sendwell/contracts';
import { DnsServerError, DnsTimeoutError } from '../dns/types.js';
import { organizationalDomain } from './dmarc/org-domain.js';
import {
  mentionsDmarcVersion,
  parseDmarcRecord,
  startsWithDmarcVersion,
  type Alignment,
  type DmarcPolicy,
  type DmarcRecord,
  type DmarcUri,
} from './dmarc/record.js';
import type { Check, CheckContext, CheckResult } from './types.js';

/**
 * DMARC (RFC 7489): policy discovery as a receiver does it (§6.6.3: the domain's `_dmarc` record,
 * else the Organizational Domain's), every tag parsed, and external report destinations verified
 * (§7.1) so the user learns when reports they asked for will never be sent.
 */

export interface DmarcReportUri extends DmarcUri {
  /** The destination's organisational domain differs from the policy domain's (§7.1). */
  external: boolean;
  /** For external mailto destinations: whether the destination accepts the reports; null if DNS failed. */
  verified?: boolean | null;
  /** The name queried to verify an external destination. */
  verificationName?: string;
}

export interface DmarcDetails extends Record<string, unknown> {
  /** `p=` of the record that applies (null when none or invalid). */
  policy: DmarcPolicy | null;
  /** The policy for subdomains: `sp=`, else `p=`. */
  subdomainPolicy: DmarcPolicy | null;
  /** What receivers apply to mail from this very domain (`sp`/`p` of the org record when inherited). */
  effectivePolicy: DmarcPolicy | null;
  /** `np=` (RFC 9091) for non-existent subdomains, when published. */
  nonExistentSubdomainPolicy?: DmarcPolicy | null;
  /** Share of failing mail the policy applies to (default 100). */
  pct?: number;
  /** The record that applies (null when none, or when several make DMARC void). */
  record: string | null;
  /** Every DMARC-looking TXT record at the `_dmarc` name that was used. */
  records: string[];
  source: 'domain' | 'organizational' | null;
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

const POLICY_STRENGTH: Record<DmarcPolicy, number> = { none: 0, quarantine: 1, reject: 2 };

type Discovery = { outcome: 'failed'; reason: string } | { outcome: 'answered'; valid: string[]; misplaced: string[] };

async function discover(ctx: CheckContext, domain: string): Promise<Discovery> {
  try {
    const txt = await ctx.resolver.lookup(`_dmarc.${domain}`, 'TXT');
    const valid: string[] = [];
    const misplaced: string[] = [];
    for (const record of txt) {
      if (startsWithDmarcVersion(record)) valid.push(record);
      else if (mentionsDmarcVersion(record)) misplaced.push(record);
    }
    return { outcome: 'answered', valid, misplaced };
  } catch (error) {
    if (error instanceof DnsTimeoutError) return { outcome: 'failed', reason: 'timed out' };
    if (error instanceof DnsServerError) return { outcome: 'failed', reason: error.rcode };
    throw error;
  }
}

/** §7.1: `{policyDomain}._report._dmarc.{destination}` must hold a record starting with v=DMARC1. */
async function verifyDestination(ctx: CheckContext, name: string): Promise<boolean | null> {
  try {
    const txt = await ctx.resolver.lookup(name, 'TXT');
    return txt.some(startsWithDmarcVersion);
  } catch (error) {
    if (error instanceof DnsTimeoutError || error instanceof DnsServerError) return null;
    // The name is longer than DNS allows: no receiver can verify it either.
    if (error instanceof RangeError) return false;
    throw error;
  }
}

function firstRecommendation(findings: Finding[]): string | null {
  for (const severity of ['error', 'warning', 'info'] as const) {
    const found = findings.find((finding) => finding.severity === severity && finding.recommendation);
    if (found?.recommendation) return found.recommendation;
  }
  return null;
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

const SUGGESTED_RECORD = (domain: string) =>
  `Publish a TXT record at _dmarc.${domain}: "v=DMARC1; p=none; rua=mailto:dmarc@${domain}", then move to p=quarantine and p=reject once the reports show your mail passes.`;

export const dmarcCheck: Check = async (ctx: CheckContext): Promise<CheckResult<DmarcDetails>> => {
  const domain = ctx.domain;
  const orgDomain = organizationalDomain(domain);
  const findings: Finding[] = [];
  const unknown = (where: string, reason: string): CheckResult<DmarcDetails> => ({
    type: 'dmarc',
    status: 'unknown',
    value: null,
    message: `DMARC could not be checked: the DNS lookup of _dmarc.${where} ${reason === 'timed out' ? 'timed out' : `failed (${reason})`}.`,
    recommendation: null,
    details: emptyDetails(orgDomain, findings),
  });

  let source: 'domain' | 'organizational' = 'domain';
  let policyDomain = domain;
  let found = await discover(ctx, domain);
  if (found.outcome === 'failed') return unknown(domain, found.reason);
  if (found.valid.length === 0 && found.misplaced.length === 0 && orgDomain !== domain) {
    source = 'organizational';
    policyDomain = orgDomain;
    found = await discover(ctx, orgDomain);
    if (found.outcome === 'failed') return unknown(orgDomain, found.reason);
  }
  const records = [...found.valid, ...found.misplaced];

  if (records.length === 0) {
    findings.push({
      code: 'DMARC_MISSING',
      severity: 'error',
      message:
        orgDomain === domain
          ? `No DMARC record at _dmarc.${domain}, so receivers apply no policy to mail forging this domain.`
          : `No DMARC record at _dmarc.${domain} nor at the organisational domain _dmarc.${orgDomain}.`,
      rfc: 'RFC 7489 §6.6.3',
      recommendation: SUGGESTED_RECORD(orgDomain),
    });
    return {
      type: 'dmarc',
      status: 'missing',
      value: null,
      message: `No DMARC record found for ${domain}.`,
      recommendation: SUGGESTED_RECORD(orgDomain),
      details: emptyDetails(orgDomain, findings),
    };
  }

  if (found.valid.length > 1) {
    findings.push({
      code: 'DMARC_MULTIPLE_RECORDS',
      severity: 'error',
      message: `_dmarc.${policyDomain} has ${found.valid.length} DMARC records, so receivers apply none of them.`,
      rfc: 'RFC 7489 §6.6.3',
      recommendation: `Merge them into exactly one TXT record at _dmarc.${policyDomain}.`,
    });
    return {
      type: 'dmarc',
      status: 'error',
      value: found.valid.join(' | '),
      message: `${found.valid.length} DMARC records are published at _dmarc.${policyDomain}, which voids DMARC.`,
      recommendation: `Merge them into exactly one TXT record at _dmarc.${policyDomain}.`,
      details: { ...emptyDetails(orgDomain, findings, records), source, policyDomain },
    };
  }

  const record = (found.valid[0] ?? found.misplaced[0]) as string;
  const parsed = parseDmarcRecord(record);
  findings.push(...parsed.findings);

  const subdomainPolicy = parsed.subdomainPolicy ?? parsed.policy;
  // A subdomain without its own record gets the organisational record's sp= (§6.6.3, §6.3 "sp").
  const effectivePolicy = source === 'organizational' ? subdomainPolicy : parsed.policy;
  const pct = parsed.pct ?? 100;

  if (source === 'organizational') {
    findings.push({
      code: 'DMARC_INHERITED_FROM_ORG',
      severity: 'info',
      message: `${domain} has no DMARC record of its own; the record of ${orgDomain} applies, with its ${parsed.subdomainPolicy ? `sp=${parsed.subdomainPolicy}` : `p=${parsed.policy ?? '(none)'} (no sp=)`} for subdomains.`,
      rfc: 'RFC 7489 §6.6.3',
      recommendation: `To set a different policy for ${domain}, publish a record at _dmarc.${domain} or set sp= at _dmarc.${orgDomain}.`,
    });
  }

  addPolicyFindings(parsed, { effectivePolicy, pct, source, orgDomain }, findings);

  const ruaFindings: Finding[] = [];
  const rufFindings: Finding[] = [];
  const [rua, ruf] = await Promise.all([
    verifyDestinations(ctx, parsed.rua, policyDomain, ruaFindings, 'rua'),
    verifyDestinations(ctx, parsed.ruf, policyDomain, rufFindings, 'ruf'),
  ]);
  findings.push(...ruaFindings, ...rufFindings);

  const details: DmarcDetails = {
    policy: parsed.policy,
    subdomainPolicy,
    effectivePolicy,
    ...(parsed.nonExistentPolicy ? { nonExistentSubdomainPolicy: parsed.nonExistentPolicy } : {}),
    pct,
    record,
    records,
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

  const errors = findings.filter((finding) => finding.severity === 'error');
  if (errors.length > 0) {
    const tags = [...new Set(errors.map((finding) => finding.tag).filter((tag): tag is string => typeof tag === 'string'))];
    return {
      type: 'dmarc',
      status: 'error',
      value: record,
      message: `The DMARC record has ${errors.length === 1 ? 'an error' : `${errors.length} errors`}${tags.length > 0 ? ` (${tags.map((tag) => `${tag}=`).join(', ')})` : ''}.`,
      recommendation: firstRecommendation(findings),
      details,
    };
  }

  const warnings = findings.some((finding) => finding.severity === 'warning');
  const from = source === 'organizational' ? ` (inherited from ${orgDomain})` : '';
  return {
    type: 'dmarc',
    status: effectivePolicy === 'none' || warnings ? 'warning' : 'valid',
    value: record,
    message:
      effectivePolicy === 'none'
        ? `DMARC is in monitoring mode only (policy none${source === 'organizational' ? `, inherited from ${orgDomain}` : ''}): forged mail is still delivered.`
        : `DMARC policy is ${effectivePolicy ?? 'none'}${pct < 100 ? ` for ${pct}% of failing mail` : ''}${from}${warnings ? ', with issues to fix' : ''}.`,
    recommendation: warnings ? firstRecommendation(findings) : null,
    details,
  };
};

function addPolicyFindings(
  parsed: DmarcRecord,
  context: { effectivePolicy: DmarcPolicy | null; pct: number; source: 'domain' | 'organizational'; orgDomain: string },
  findings: Finding[],
): void {
  const { effectivePolicy, pct, source } = context;
  const weakerSubdomains =
    parsed.subdomainPolicy === 'none' && parsed.policy !== null && POLICY_STRENGTH[parsed.policy] > POLICY_STRENGTH.none;
  // An inheriting subdomain under "p=reject; sp=none" gets the one finding that names sp= as the cause.
  if (effectivePolicy === 'none' && !(source === 'organizational' && weakerSubdomains)) {
    findings.push({
      code: 'DMARC_POLICY_NONE',
      severity: 'warning',
      message: 'The policy is p=none: receivers report failures but still deliver forged mail.',
      rfc: 'RFC 7489 §6.3',
      recommendation:
        'Once the aggregate reports show all your legitimate mail passes SPF or DKIM aligned, move to p=quarantine, then p=reject.',
      tag: 'p',
    });
  }
  if (weakerSubdomains) {
    findings.push({
      code: 'DMARC_SUBDOMAIN_POLICY_NONE',
      severity: 'warning',
      message: `sp=none leaves subdomains${source === 'organizational' ? ', this domain included,' : ''} unprotected although p=${parsed.policy}.`,
      rfc: 'RFC 7489 §6.3',
      recommendation: `Remove sp=none (subdomains then follow p=${parsed.policy}) or set sp=quarantine.`,
      tag: 'sp',
    });
  }
  if (pct < 100 && effectivePolicy !== null && effectivePolicy !== 'none') {
    findings.push({
      code: 'DMARC_PCT_PARTIAL',
      severity: 'warning',
      message: `pct=${pct}: the ${effectivePolicy} policy applies to only ${pct}% of failing mail; the rest is treated one step more leniently.`,
      rfc: 'RFC 7489 §6.6.4',
      recommendation: 'Raise pct to 100 (or remove the tag) once you are confident in your setup.',
      tag: 'pct',
    });
  }
  if (parsed.rua.length === 0) {
    findings.push({
      code: 'DMARC_NO_RUA',
      severity: 'warning',
      message: 'No rua= address: you get no aggregate reports, so you cannot see who sends mail as your domain.',
      rfc: 'RFC 7489 §7.2',
      recommendation: `Add "rua=mailto:dmarc@${context.orgDomain}" (or your DMARC report service's address).`,
      tag: 'rua',
    });
  }
  const relaxed = [parsed.adkim === 'relaxed' ? 'adkim' : null, parsed.aspf === 'relaxed' ? 'aspf' : null].filter(
    (tag): tag is string => tag !== null,
  );
  if (relaxed.length > 0) {
    findings.push({
      code: 'DMARC_ALIGNMENT_RELAXED',
      severity: 'info',
      message: `Relaxed alignment (${relaxed.join(', ')}): mail signed or sent from any subdomain of the organisational domain aligns.`,
      rfc: 'RFC 7489 §3.1',
      recommendation: 'Strict alignment (adkim=s, aspf=s) is stricter but breaks mail sent through subdomains; relaxed suits most domains.',
    });
  }
}

async function verifyDestinations(
  ctx: CheckContext,
  uris: DmarcUri[],
  policyDomain: string,
  findings: Finding[],
  tag: 'rua' | 'ruf',
): Promise<DmarcReportUri[]> {
  const policyOrg = organizationalDomain(policyDomain);
  const results = await Promise.all(
    uris.map(async (uri): Promise<DmarcReportUri> => {
      if (uri.domain === null || organizationalDomain(uri.domain) === policyOrg) return { ...uri, external: false };
      const verificationName = `${policyDomain}._report._dmarc.${uri.domain}`;
      return { ...uri, external: true, verified: await verifyDestination(ctx, verificationName), verificationName };
    }),
  );
  // Findings in the record's order, whatever order the lookups finished in.
  for (const uri of results) {
    if (!uri.external || uri.domain === null || uri.verificationName === undefined) continue;
    const { verified, verificationName } = uri;
    if (verified === false) {
      findings.push({
        code: 'DMARC_EXTERNAL_DEST_UNVERIFIED',
        severity: 'warning',
        message: `${uri.domain} has not authorised reports for ${policyDomain} (no v=DMARC1 record at ${verificationName}), so receivers will not send ${tag} reports to ${uri.address ?? uri.uri}.`,
        rfc: 'RFC 7489 §7.1',
        recommendation: `Ask the operator of ${uri.domain} to publish the TXT record "v=DMARC1" at ${verificationName} (report services do this when you register your domain), or use an address at your own domain.`,
        tag,
        destination: uri.domain,
      });
    } else if (verified === null) {
      findings.push({
        code: 'DMARC_EXTERNAL_DEST_UNKNOWN',
        severity: 'info',
        message: `Could not check whether ${uri.domain} accepts reports for ${policyDomain}: the DNS lookup of ${verificationName} failed.`,
        rfc: 'RFC 7489 §7.1',
        tag,
        destination: uri.domain,
      });
    }
  }
  return results;
}
