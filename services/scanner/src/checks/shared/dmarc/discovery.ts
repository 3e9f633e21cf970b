import { DnsServerError, DnsTimeoutError } from '../../../dns/types.js';
import type { CheckContext } from '../../types.js';
import { mentionsDmarcVersion, startsWithDmarcVersion } from './record.js';

/**
 * Policy discovery as a receiver does it (RFC 7489 §6.6.3): the domain's `_dmarc` record, else the
 * Organizational Domain's. `valid` records start with v=DMARC1; `misplaced` ones carry it elsewhere.
 */
export type PolicyDiscovery =
  | { outcome: 'failed'; policyDomain: string; reason: string }
  | { outcome: 'answered'; source: 'domain' | 'organizational'; policyDomain: string; valid: string[]; misplaced: string[] };

type DmarcAnswer = { outcome: 'failed'; reason: string } | { outcome: 'answered'; valid: string[]; misplaced: string[] };

export async function discoverPolicy(ctx: CheckContext, domain: string, orgDomain: string): Promise<PolicyDiscovery> {
  const own = await askDmarc(ctx, domain);
  if (own.outcome === 'failed') return { ...own, policyDomain: domain };
  if (own.valid.length > 0 || own.misplaced.length > 0 || orgDomain === domain) return { ...own, source: 'domain', policyDomain: domain };
  const org = await askDmarc(ctx, orgDomain);
  if (org.outcome === 'failed') return { ...org, policyDomain: orgDomain };
  return { ...org, source: 'organizational', policyDomain: orgDomain };
}

async function askDmarc(ctx: CheckContext, domain: string): Promise<DmarcAnswer> {
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
