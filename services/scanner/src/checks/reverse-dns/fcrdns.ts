import { DnsServerError, DnsTimeoutError, type Resolver } from '../../dns/types.js';
import { parseIp, reverseName, sameIp } from '../shared/ip.js';
import { looksGeneric } from './generic.js';
import type { SendingAddress } from './sending-addresses.js';

/** PTR names followed forward per address: an address with dozens of PTR records costs no more than three. */
const MAX_PTR_NAMES = 3;

/** Forward-confirmed reverse DNS of one address: its PTR names and whether one resolves back to it. */
export interface AddressResult extends SendingAddress {
  ptr: string[];
  forwardConfirmed: boolean;
  confirmedName: string | null;
  generic: boolean;
  private: boolean;
  /** The lookups failed, so the address could not be judged. */
  error: string | null;
  outcome: 'confirmed' | 'no-ptr' | 'not-confirmed' | 'unknown';
}

/**
 * PTR of the reverse name (in-addr.arpa / ip6.arpa), then A or AAAA of up to MAX_PTR_NAMES of the
 * names: confirmed when one of them includes the address (RFC 8601 §3, "iprev"). Both questions are
 * about the address's owner, not the scanned domain, so they go through the shared cache.
 */
export async function checkAddress(resolver: Resolver, address: SendingAddress, isPrivate: boolean): Promise<AddressResult> {
  const result: AddressResult = { ...address, ptr: [], forwardConfirmed: false, confirmedName: null, generic: false, private: isPrivate, error: null, outcome: 'unknown' };
  const ip = parseIp(address.ip);
  if (!ip) {
    result.error = 'not an IP address';
    return result;
  }
  try {
    const names = await resolver.lookup(reverseName(ip), 'PTR', { shared: true });
    result.ptr = [...new Set(names.map((name) => name.toLowerCase().replace(/\.$/, '')).filter((name) => name !== ''))];
  } catch (error) {
    if (!(error instanceof DnsTimeoutError || error instanceof DnsServerError)) throw error;
    result.error = error.message;
    return result;
  }
  if (result.ptr.length === 0) {
    result.outcome = 'no-ptr';
    return result;
  }
  result.generic = result.ptr.some((name) => looksGeneric(name, ip));
  const type = ip.version === 4 ? 'A' : 'AAAA';
  let lookupError: string | null = null;
  for (const name of result.ptr.slice(0, MAX_PTR_NAMES)) {
    try {
      const forward = await resolver.lookup(name, type, { shared: true });
      if (forward.some((text) => {
        const candidate = parseIp(text);
        return candidate !== null && sameIp(candidate, ip);
      })) {
        result.forwardConfirmed = true;
        result.confirmedName = name;
        break;
      }
    } catch (error) {
      if (!(error instanceof DnsTimeoutError || error instanceof DnsServerError)) throw error;
      lookupError ??= error.message;
    }
  }
  if (result.forwardConfirmed) result.outcome = 'confirmed';
  else if (lookupError !== null) {
    result.outcome = 'unknown';
    result.error = lookupError;
  } else result.outcome = 'not-confirmed';
  return result;
}
