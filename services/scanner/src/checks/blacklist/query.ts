import { DnsTimeoutError, type Resolver } from '../../dns/types.js';
import { classifyDnsblAnswer, mapLimit } from './dnsbl.js';
import type { DnsblQuery } from './plan.js';
import type { DnsblZone } from './zones.js';
import type { BlocklistHealthView } from '../types.js';

/** DNSBL questions in flight at once for one scan: enough to finish fast, few enough not to burst sockets. */
const MAX_CONCURRENT_QUERIES = 12;

export type UnknownReason = 'refused' | 'unexpected' | 'timeout' | 'servfail' | 'degraded';
export type Outcome =
  | { status: 'clean' }
  | { status: 'listed'; codes: string[] }
  | { status: 'unknown'; reason: UnknownReason; codes: string[]; rcode?: string; detail?: string };

/** A list's answer to one query, with its TXT reason when it lists. */
export interface DnsblAnswer {
  outcome: Outcome;
  reason: string | null;
}

/**
 * Asks every planned query, at most MAX_CONCURRENT_QUERIES at once; answers in query order. A list
 * the registry found degraded is not asked: its answer is unknown, with the registry's reason.
 */
export function askLists(resolver: Resolver, queries: readonly DnsblQuery[], health?: BlocklistHealthView): Promise<DnsblAnswer[]> {
  return mapLimit(queries, MAX_CONCURRENT_QUERIES, async (query) => {
    const degraded = health?.degradedReason(query.zone.zone) ?? null;
    if (degraded !== null) return { outcome: { status: 'unknown', reason: 'degraded', codes: [], detail: degraded }, reason: null };
    const outcome = await ask(resolver, query.name, query.zone);
    const reason = outcome.status === 'listed' ? await reasonOf(resolver, query.name, query.zone.kind === 'ip') : null;
    return { outcome, reason };
  });
}

/**
 * IP-list questions are about an address, not the scanned domain: the many domains behind one
 * provider's mail servers share the answer through the shared cache, within its TTL.
 */
async function ask(resolver: Resolver, name: string, zone: DnsblZone): Promise<Outcome> {
  try {
    const response = await resolver.query(name, 'A', { shared: zone.kind === 'ip' });
    if (response.rcode === 'NXDOMAIN') return { status: 'clean' };
    if (response.rcode !== 'NOERROR') return { status: 'unknown', reason: 'servfail', codes: [], rcode: response.rcode };
    const verdict = classifyDnsblAnswer(zone, response.answers);
    if (verdict.status === 'refused') return { status: 'unknown', reason: verdict.reason, codes: verdict.codes };
    if (verdict.status === 'listed') return { status: 'listed', codes: verdict.codes };
    return { status: 'clean' };
  } catch (error) {
    if (error instanceof DnsTimeoutError) return { status: 'unknown', reason: 'timeout', codes: [] };
    // The resolver's errors quote the name asked, and a failed check's text is stored: for a list
    // reached with a key that name holds the key. The list's display name and the error's kind only.
    throw new Error(`the question to ${zone.name} failed (${error instanceof Error ? error.name : 'error'})`, { cause: error });
  }
}

/** The list's TXT reason for a listing (RFC 5782 §2.1: an optional TXT record with the reason). */
async function reasonOf(resolver: Resolver, name: string, shared: boolean): Promise<string | null> {
  try {
    const response = await resolver.query(name, 'TXT', { shared });
    return response.answers.length > 0 ? response.answers.join(' ') : null;
  } catch {
    return null;
  }
}
