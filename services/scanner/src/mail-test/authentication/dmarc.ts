import type { DkimSignatureResult, MailTestAnalysis, MailTestFinding } from '@sendwell/contracts';
import { organizationalDomain } from '../../checks/shared/dmarc/org-domain.js';
import { parseDmarcRecord, startsWithDmarcVersion, type Alignment, type DmarcRecord } from '../../checks/shared/dmarc/record.js';
import { DnsServerError, DnsTimeoutError, type Resolver } from '../../dns/types.js';
import { finding } from '../finding.js';

type Dmarc = MailTestAnalysis['authentication']['dmarc'];
type Spf = MailTestAnalysis['authentication']['spf'];

/** The DMARC verdict and what the BIMI eligibility needs of the record behind it. */
export interface DmarcReading {
  value: Dmarc;
  parsed: DmarcRecord | null;
  /** Why there is no verdict (lookup failure, several records, no From domain). */
  problem: string | null;
}

type Discovery = { failed: string } | { records: string[]; policyDomain: string; inherited: boolean };

async function recordsAt(resolver: Resolver, domain: string): Promise<string[] | { failed: string }> {
  try {
    return (await resolver.lookup(`_dmarc.${domain}`, 'TXT')).filter(startsWithDmarcVersion);
  } catch (error) {
    if (error instanceof DnsTimeoutError) return { failed: `the lookup of _dmarc.${domain} timed out` };
    if (error instanceof DnsServerError) return { failed: `the lookup of _dmarc.${domain} failed (${error.rcode})` };
    throw error;
  }
}

/** Policy discovery (RFC 7489 §6.6.3): the From domain's record, else its organisational domain's. */
async function discover(resolver: Resolver, domain: string): Promise<Discovery> {
  const own = await recordsAt(resolver, domain);
  if (!Array.isArray(own)) return own;
  const org = organizationalDomain(domain);
  if (own.length > 0 || org === domain) return { records: own, policyDomain: domain, inherited: false };
  const inherited = await recordsAt(resolver, org);
  if (!Array.isArray(inherited)) return inherited;
  return { records: inherited, policyDomain: org, inherited: true };
}

function aligned(identity: string | null, fromDomain: string, mode: Alignment): boolean {
  if (identity === null || identity === '') return false;
  return mode === 'strict' ? identity === fromDomain : organizationalDomain(identity) === organizationalDomain(fromDomain);
}

/**
 * DMARC evaluated from our own SPF and DKIM results (RFC 7489 §4.2): pass when SPF passed for an
 * aligned MAIL FROM (or HELO, for the null sender) domain, or a DKIM signature passed for an aligned d=.
 */
export async function readDmarc(resolver: Resolver, fromDomain: string | null, fromProblem: string | null, spf: Spf, dkim: DkimSignatureResult[]): Promise<DmarcReading> {
  const blank: Dmarc = { domain: fromDomain, record: null, policy: null, result: 'none', spfAligned: false, dkimAligned: false };
  if (fromDomain === null) return { value: { ...blank, result: 'permerror' }, parsed: null, problem: fromProblem ?? 'the message has no From domain' };
  const found = await discover(resolver, fromDomain);
  if ('failed' in found) return { value: { ...blank, result: 'temperror' }, parsed: null, problem: found.failed };
  if (found.records.length === 0) return { value: blank, parsed: null, problem: null };
  if (found.records.length > 1) return { value: { ...blank, result: 'permerror' }, parsed: null, problem: `_dmarc.${found.policyDomain} has ${found.records.length} DMARC records, so receivers apply none` };
  const record = found.records[0] as string;
  const parsed = parseDmarcRecord(record);
  // An inherited record applies its subdomain policy (§6.3 sp=); a missing or invalid p= reads as none (§6.6.3).
  const policy = (found.inherited ? (parsed.subdomainPolicy ?? parsed.policy) : parsed.policy) ?? 'none';
  const spfAligned = spf.mailFrom.result === 'pass' && aligned(spf.mailFrom.domain, fromDomain, parsed.aspf);
  const dkimAligned = dkim.some((signature) => signature.result === 'pass' && aligned(signature.domain, fromDomain, parsed.adkim));
  return {
    value: { domain: fromDomain, record, policy, result: spfAligned || dkimAligned ? 'pass' : 'fail', spfAligned, dkimAligned },
    parsed,
    problem: null,
  };
}

export function dmarcFindings({ value, problem }: DmarcReading): MailTestFinding[] {
  const domain = value.domain ?? 'the From domain';
  switch (value.result) {
    case 'none':
      return [
        finding('authentication', {
          code: 'DMARC_MISSING',
          severity: 'error',
          title: `${domain} has no DMARC record`,
          explanation: 'Without DMARC, receivers cannot tell whether mail claiming to be from your domain is genuine, and anyone can send as you. Gmail and Yahoo require a DMARC record of bulk senders.',
          fix: `Publish a TXT record at _dmarc.${domain}: "v=DMARC1; p=none; rua=mailto:<your report address>" to start, then move to quarantine and reject as the reports show your mail passes.`,
          reference: 'Gmail sender guidelines',
          points: 1.5,
        }),
      ];
    case 'fail':
      return [
        finding('authentication', {
          code: 'DMARC_FAIL',
          severity: 'error',
          title: `DMARC fails for ${domain}`,
          explanation: `Neither SPF nor DKIM passed for a domain aligned with ${domain}, so receivers apply its policy (p=${value.policy ?? 'none'})${value.policy === 'reject' ? ' and refuse the message' : value.policy === 'quarantine' ? ' and put the message in spam' : ' and are free to distrust the message'}.`,
          fix: `Sign with DKIM as ${domain} (d=${domain}), and send with a MAIL FROM (return path) under ${domain} that your SPF record authorises.`,
          reference: 'RFC 7489 §4.2',
          points: 2,
        }),
      ];
    case 'temperror':
    case 'permerror':
      return [
        finding('authentication', {
          code: value.result === 'temperror' ? 'DMARC_TEMPERROR' : 'DMARC_PERMERROR',
          severity: value.result === 'temperror' ? 'info' : 'error',
          title: `DMARC could not be evaluated for ${domain}`,
          explanation: `${problem ?? 'DMARC could not be evaluated'}. ${value.result === 'temperror' ? 'Receivers that see the same defer the message.' : 'Receivers treat such mail with suspicion.'}`,
          fix: value.result === 'temperror' ? 'Check that the DNS servers of the domain answer reliably.' : 'Send with exactly one From address, and publish exactly one DMARC record.',
          reference: 'RFC 7489 §6.6',
          points: value.result === 'temperror' ? 0 : 1,
        }),
      ];
    case 'pass':
      if (value.policy !== 'none') return [];
      return [
        finding('authentication', {
          code: 'DMARC_POLICY_NONE',
          severity: 'info',
          title: `DMARC passes, but ${domain} only monitors (p=none)`,
          explanation: 'With p=none receivers deliver mail that fails DMARC as usual, so others can still send as your domain. It is the right first step; the road goes on to p=quarantine and p=reject, which also make you eligible for BIMI logos.',
          fix: 'Read your DMARC reports until all your legitimate mail passes, then publish p=quarantine, and later p=reject.',
          reference: 'RFC 7489 §6.3',
          points: 0,
        }),
      ];
  }
}
