import { DnsServerError, DnsTimeoutError, type Resolver } from '../../dns/types.js';
import { isBimiRecord, looksLikeBimiRecord } from './record.js';

/**
 * Assertion Record discovery (draft-brand-indicators-for-message-identification §7.2) for the
 * "default" selector: `default._bimi.{domain}`, and when that name has no BIMI record, the
 * organisational domain's, as receivers fall back to it for mail from a subdomain.
 */

export const SELECTOR = 'default';

export type RecordDiscovery =
  | { outcome: 'failed'; name: string; reason: string }
  /** `records` start with "v=BIMI1"; `ignored` look like BIMI records but receivers discard them. */
  | { outcome: 'answered'; recordDomain: string; name: string; records: string[]; ignored: string[] };

async function ask(resolver: Resolver, domain: string): Promise<RecordDiscovery> {
  const name = `${SELECTOR}._bimi.${domain}`;
  try {
    const txt = await resolver.lookup(name, 'TXT');
    return { outcome: 'answered', recordDomain: domain, name, records: txt.filter(isBimiRecord), ignored: txt.filter(looksLikeBimiRecord) };
  } catch (error) {
    if (error instanceof DnsTimeoutError) return { outcome: 'failed', name, reason: 'timed out' };
    if (error instanceof DnsServerError) return { outcome: 'failed', name, reason: `failed (${error.rcode})` };
    throw error;
  }
}

export async function discoverRecords(resolver: Resolver, domain: string, orgDomain: string): Promise<RecordDiscovery> {
  const own = await ask(resolver, domain);
  if (own.outcome === 'failed' || own.records.length > 0 || own.ignored.length > 0 || orgDomain === domain) return own;
  const org = await ask(resolver, orgDomain);
  // Nothing at either name: report the domain's own name, where the user would publish.
  if (org.outcome === 'answered' && org.records.length === 0 && org.ignored.length === 0) return own;
  return org;
}
