import { isOutsideDomain } from '../../dns/shared-cache.js';
import type { Resolver } from '../../dns/types.js';
import { planMxHosts } from '../shared/mx-probe/mx-hosts.js';
import type { Check, CheckContext } from '../types.js';
import { displayName } from '../shared/dnssec/canonical.js';
import { scanValidator } from '../shared/dnssec/scan-validator.js';
import type { DsRecord } from '../shared/dnssec/trust-anchor.js';
import { DnssecValidator, type Problem, type RrsetOutcome } from '../shared/dnssec/validator.js';
import { dnssecVerdict, type DnssecOutcome, type DnssecResult } from './verdict.js';

export { ROOT_KSK_2017, ROOT_KSK_2024, ROOT_TRUST_ANCHORS, parseDsRecord, parseTrustAnchors, dsPresentation, type DsRecord } from '../shared/dnssec/trust-anchor.js';

export type DnssecCheck = (ctx: CheckContext) => Promise<DnssecResult>;

export interface DnssecCheckOptions {
  /** Milliseconds clock, for tests. */
  now?: () => number;
}

/**
 * DNSSEC (RFC 4033–4035) as a validating resolver sees the domain: the chain of trust from the
 * trust anchors (the root's KSK-2017 and KSK-2024 by default) down to the domain's zone through DS, DNSKEY and
 * RRSIG records, then the signatures over what the scanner reads there: the SOA, the MX records, the
 * TXT records of the domain (SPF) and of `_dmarc` (DMARC), and the TLSA records of the MX hosts
 * (`_25._tcp.{host}`, DANE: validated in the host's own zone). Questions go to the recursive
 * resolver with DO and CD set, so it passes on signatures and bogus data; the scanner validates.
 */
export function dnssecCheckWith(trustAnchors: readonly DsRecord[], options: DnssecCheckOptions = {}): DnssecCheck {
  const clock = options.now ?? Date.now;
  return (ctx) => validateDomain(ctx, new DnssecValidator({ resolver: ctx.resolver, domain: ctx.domain, trustAnchors, now: clock() }));
}

async function validateDomain({ domain, resolver }: CheckContext, validator: DnssecValidator): Promise<DnssecResult> {
  // The walk and the MX host list in parallel: both are needed whatever the other says.
  const [zone, plan] = await Promise.all([validator.zoneFor(domain), planMxHosts(resolver, domain)]);
  const lookupProblems: DnssecOutcome['lookupProblems'] = [];

  const read = async (name: string, type: 'SOA' | 'MX' | 'TXT' | 'TLSA', essential: boolean): Promise<RrsetOutcome[]> => {
    const outcome = await validator.validateAnswer(name, type);
    if (Array.isArray(outcome)) {
      for (const rrset of outcome) {
        if (rrset.state === 'indeterminate' && rrset.problem) lookupProblems.push({ problem: rrset.problem, essential });
      }
      return outcome;
    }
    lookupProblems.push({ problem: outcome as Problem, essential });
    return [];
  };

  // The domain's own records matter only in a signed zone: in an unsigned (or bogus) one they are
  // unsigned (or bogus) too, and the zone's finding says so.
  const ownReads =
    zone.state === 'secure'
      ? [read(zone.zone === domain ? domain : displayName(zone.zone), 'SOA', true), read(domain, 'MX', true), read(domain, 'TXT', false), read(`_dmarc.${domain}`, 'TXT', false)]
      : [];
  const tlsaReads = plan.hosts.map(async (host) => ((await hasTlsa(resolver, host.exchange, domain)) ? read(`_25._tcp.${host.exchange}`, 'TLSA', false) : []));
  const [own, tlsa] = await Promise.all([Promise.all(ownReads), Promise.all(tlsaReads)]);
  // A TLSA answer without TLSA records (NODATA, or a CNAME to nothing) says nothing about DANE.
  const tlsaSets = tlsa.filter((rrsets) => rrsets.some((rrset) => rrset.type === 'TLSA')).flat();
  return dnssecVerdict({ domain, trustAnchors: validator.trustAnchors, zone, records: own.flat(), tlsa: tlsaSets, lookupProblems, validator, now: validator.now });
}

/**
 * Whether the host publishes TLSA records, asked as the DANE check asks (one question per scan for
 * both): only those hosts get the DNSSEC question. A failed lookup is asked with DNSSEC, which reports it.
 */
async function hasTlsa(resolver: Resolver, exchange: string, domain: string): Promise<boolean> {
  try {
    return (await resolver.lookup(`_25._tcp.${exchange}`, 'TLSA', { shared: isOutsideDomain(exchange, domain) })).length > 0;
  } catch (error) {
    if (error instanceof RangeError) return false;
    return true;
  }
}

/**
 * The check anchored on the scanner's configured trust anchors (SCAN_DNSSEC_TRUST_ANCHOR), else on
 * the root's published KSKs, KSK-2017 and KSK-2024 (the root has been signed with KSK-2024 since
 * October 2026), with the scan's validator, which the DANE check asks for the same TLSA RRsets.
 */
export const dnssecCheck: Check<'dnssec'> = (ctx) => validateDomain(ctx, scanValidator(ctx));
