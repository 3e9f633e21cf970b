import { DnsServerError, DnsTimeoutError } from '../../dns/types.js';
import type { CheckContext } from '../types.js';
import type { SelectorPlan } from './selectors.js';

/**
 * One TXT question per selector at `{selector}._domainkey.{domain}`, all at once. The recursive server
 * follows the CNAMEs that ESPs have customers publish, so nothing more is asked.
 */

/** Who named the selector: the user, a DMARC aggregate report (mail signed with it), or the common list. */
export type ProbeSource = 'user' | 'report' | 'common';

interface ProbeOf {
  selector: string;
  source: ProbeSource;
  /** The signing domain when it is a subdomain of the scanned one (a reported selector): its key lives under it. */
  signingDomain?: string;
}

export type Probe = ProbeOf & ({ outcome: 'answered'; txt: string[] } | { outcome: 'failed'; reason: string });

/**
 * The user's selectors and those seen in reports are asked whatever happens (both are evidence of real
 * signing); the common ones only if the _domainkey node exists.
 */
export async function probeSelectors(ctx: CheckContext, { userSelectors, reportSelectors, commonSelectors }: SelectorPlan): Promise<Probe[]> {
  const [tree, userProbes, reportProbes] = await Promise.all([
    domainkeyTree(ctx),
    Promise.all(userSelectors.map((selector) => probe(ctx, { selector, source: 'user' }))),
    Promise.all(
      reportSelectors.map(({ selector, domain }) => probe(ctx, domain === ctx.domain ? { selector, source: 'report' } : { selector, source: 'report', signingDomain: domain })),
    ),
  ]);
  const commonProbes =
    tree === 'absent'
      ? commonSelectors.map((selector): Probe => ({ selector, source: 'common', outcome: 'answered', txt: [] }))
      : await Promise.all(commonSelectors.map((selector) => probe(ctx, { selector, source: 'common' })));
  return [...userProbes, ...reportProbes, ...commonProbes];
}

async function probe(ctx: CheckContext, of: ProbeOf): Promise<Probe> {
  try {
    const txt = await ctx.resolver.lookup(`${of.selector}._domainkey.${of.signingDomain ?? ctx.domain}`, 'TXT');
    return { ...of, outcome: 'answered', txt };
  } catch (error) {
    if (error instanceof DnsTimeoutError) return { ...of, outcome: 'failed', reason: 'timed out' };
    if (error instanceof DnsServerError) return { ...of, outcome: 'failed', reason: error.rcode };
    // A selector too long for the domain (RangeError from the name check) can hold no key.
    if (error instanceof RangeError) return { ...of, outcome: 'answered', txt: [] };
    throw error;
  }
}

/**
 * Whether anything exists under `_domainkey.{domain}`. An NXDOMAIN there means no name below it
 * exists either (RFC 8020 §2), so none of the common selectors can hold a key and their 46 TXT
 * questions are answered by this one. A name with records below it is an empty non-terminal and
 * answers NOERROR (RFC 8020 §2, RFC 4592 §2.2.2), as does a wildcard; a timeout or a server error
 * tells nothing, so those probe every selector as before. Servers that wrongly answer NXDOMAIN
 * for empty non-terminals (RFC 8020 §3 notes old ones) would hide common-selector keys: the
 * user's saved selectors are therefore always asked directly.
 */
async function domainkeyTree(ctx: CheckContext): Promise<'absent' | 'present' | 'unknown'> {
  try {
    const response = await ctx.resolver.query(`_domainkey.${ctx.domain}`, 'TXT');
    if (response.rcode === 'NXDOMAIN') return 'absent';
    return response.rcode === 'NOERROR' ? 'present' : 'unknown';
  } catch (error) {
    if (error instanceof DnsTimeoutError || error instanceof RangeError) return 'unknown';
    throw error;
  }
}
