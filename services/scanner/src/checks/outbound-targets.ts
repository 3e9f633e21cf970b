import { addressRefusal, nameRefusal, type OutboundPolicy } from '@sendwell/server-kit';
import { DnsServerError, DnsTimeoutError, type Resolver } from '../dns/types.js';

/**
 * The outbound guard as the checks use it: a host's addresses are looked up once through the scan's
 * resolver, then split into those a check may connect to and those it must not (private, loopback,
 * reserved …), so a domain pointed at our own network is reported as a finding instead of probed.
 * Checks connect to the vetted IP itself, never to the name again (a second resolution could answer
 * differently: DNS rebinding).
 */

/** A failed A or AAAA lookup: a timeout or an error rcode (SERVFAIL, REFUSED …). */
export interface AddressLookupFailure {
  type: 'A' | 'AAAA';
  error: DnsTimeoutError | DnsServerError;
}

export interface HostAddresses {
  /** The A records, then the AAAA records (IPv4 first: the scanner may have no IPv6 route). */
  addresses: string[];
  /** The first failure's own words ("DNS query A mx.example.com timed out"), A before AAAA; null when both answered. */
  error: string | null;
  /** Every failed lookup, A before AAAA, for a check that words them its own way. */
  failures: AddressLookupFailure[];
}

/**
 * A and AAAA of a host, asked at once. A timeout or an error rcode is a failure the check reports in
 * words (each its own, which its tests hold it to); anything else is a fault and is thrown. `shared`
 * as for Resolver.lookup: for a host outside the scanned domain, whose answer is the same for every scan.
 */
export async function lookupAddresses(resolver: Resolver, host: string, options: { shared?: boolean } = {}): Promise<HostAddresses> {
  const answers = await Promise.all(
    (['A', 'AAAA'] as const).map(async (type) => {
      try {
        return { type, addresses: await resolver.lookup(host, type, options), error: null };
      } catch (error) {
        if (error instanceof DnsTimeoutError || error instanceof DnsServerError) return { type, addresses: [], error };
        throw error;
      }
    }),
  );
  const failures = answers.flatMap(({ type, error }) => (error ? [{ type, error }] : []));
  return { addresses: answers.flatMap((answer) => answer.addresses), error: failures[0]?.error.message ?? null, failures };
}

export interface RefusedTarget {
  address: string;
  /** In words, e.g. "loopback", "private network". */
  reason: string;
}

export function vetAddresses(addresses: readonly string[], policy: OutboundPolicy): { allowed: string[]; refused: RefusedTarget[] } {
  const allowed: string[] = [];
  const refused: RefusedTarget[] = [];
  for (const address of addresses) {
    const reason = addressRefusal(address, policy);
    if (reason === null) allowed.push(address);
    else refused.push({ address, reason });
  }
  return { allowed, refused };
}

/** A host name that is refused before any lookup (localhost, *.local, *.internal …), as a refused target. */
export function refusedName(host: string): RefusedTarget | null {
  const reason = nameRefusal(host);
  return reason === null ? null : { address: host, reason };
}

/** "a private address (loopback)", or "private addresses (loopback; private network)" for several. */
export function describeRefused(refused: readonly RefusedTarget[]): string {
  const reasons = [...new Set(refused.map((target) => target.reason))].join('; ');
  return `${refused.length === 1 ? 'a private address' : 'private addresses'} (${reasons})`;
}
