import { DnsServerError, DnsTimeoutError } from '../../dns/types.js';
import type { CheckContext } from '../types.js';
import type { SelectorPlan } from './selectors.js';

/**
 * One TXT question per selector at `{selector}._domainkey.{domain}`, all at once. The recursive server
 * follows the CNAMEs that ESPs have customers publish, so nothing more is asked.
 */

export type Probe =
  | { selector: string; source: 'user' | 'common'; outcome: 'answered'; txt: string[] }
  | { selector: string; source: 'user' | 'common'; outcome: 'failed'; reason: string };

/** The user's selectors are asked whatever happens; the common ones only if the _domainkey node exists. */
export async function probeSelectors(ctx: CheckContext, { userSelectors, commonSelectors }: SelectorPlan): Promise<Probe[]> {
  const [tree, userProbes] = await Promise.all([domainkeyTree(ctx), Promise.all(userSelectors.map((selector) => probe(ctx, selector, 'user')))]);
  const commonProbes =
    tree === 'absent'
      ? commonSelectors.map((selector): Probe => ({ selector, source: 'common', outcome: 'answered', txt: [] }))
      : await Promise.all(commonSelectors.map((selector) => probe(ctx, selector, 'common')));
  return [...userProbes, ...commonProbes];
}

async function probe(ctx: CheckContext, selector: string, source: 'user' | 'common'): Promise<Probe> {
  try {
    const txt = await ctx.resolver.lookup(`${selector}._domainkey.${ctx.domain}`, 'TXT');
    return { selector, source, outcome: 'answered', txt };
  } catch (error) {
    if (error instanceof DnsTimeoutError) return { selector, source, outcome: 'failed', reason: 'timed out' };
    if (error instanceof DnsServerError) return { selector, source, outcome: 'failed', reason: error.rcode };
    // A selector too long for the domain (RangeError from the name check) can hold no key.
    if (error instanceof RangeError) return { selector, source, outcome: 'answered', txt: [] };
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
