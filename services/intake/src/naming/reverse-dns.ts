import type { NamingDns } from './dns.js';
import { normaliseHostName, parseAddress, sameAddress, type IpAddress } from './host-name.js';

/** PTR names looked at per address: each costs a forward lookup, and real senders publish one. */
export const MAX_PTR_NAMES = 3;

/** The reverse-lookup name of an address: in-addr.arpa octets or ip6.arpa nibbles, reversed. */
export function reverseName(address: IpAddress): string {
  const bytes = address.toByteArray();
  if (address.kind() === 'ipv4') return `${bytes.reverse().join('.')}.in-addr.arpa`;
  const nibbles: string[] = [];
  for (const byte of bytes) nibbles.push((byte >> 4).toString(16), (byte & 0xf).toString(16));
  return `${nibbles.reverse().join('.')}.ip6.arpa`;
}

export interface ReverseDnsResult {
  /** PTR names whose A (or AAAA) records include the address, in answer order. */
  confirmed: string[];
  /** Whether some lookup failed (timeout, SERVFAIL): what is confirmed may be incomplete. */
  failed: boolean;
}

/**
 * Forward-confirmed reverse DNS: the PTR names of the address (the first MAX_PTR_NAMES plausible
 * ones), each kept only when its own A (IPv4) or AAAA (IPv6) records point back at the address. A
 * PTR alone is whatever the address's owner wants it to say; the forward record is the named
 * domain's word. Never throws on DNS failure.
 */
export async function forwardConfirmedHosts(dns: NamingDns, address: IpAddress): Promise<ReverseDnsResult> {
  let failed = false;
  let names: string[];
  try {
    names = await dns.ptr(reverseName(address));
  } catch {
    return { confirmed: [], failed: true };
  }
  const candidates = [...new Set(names.map(normaliseHostName).filter((name): name is string => name !== null))].slice(0, MAX_PTR_NAMES);
  const checks = await Promise.all(
    candidates.map(async (name) => {
      try {
        const forward = address.kind() === 'ipv4' ? await dns.a(name) : await dns.aaaa(name);
        return forward.some((value) => {
          const parsed = parseAddress(value);
          return parsed !== null && sameAddress(parsed, address);
        });
      } catch {
        failed = true;
        return false;
      }
    }),
  );
  return { confirmed: candidates.filter((_, i) => checks[i]), failed };
}
