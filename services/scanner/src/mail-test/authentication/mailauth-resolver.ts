import type { DNSResolver } from 'mailauth';
import { DnsServerError, DnsTimeoutError, type Resolver } from '../../dns/types.js';

/** The record types mailauth's DKIM and ARC verification ask for (keys are TXT). */
const ANSWERED_TYPES = new Set(['TXT', 'A', 'AAAA']);

function dnsError(code: string, name: string, type: string): Error & { code: string } {
  return Object.assign(new Error(`DNS query ${type} ${name} failed with ${code}`), { code });
}

/**
 * Our resolver in the shape of `dns.promises.resolve`, which mailauth expects: TXT as the record's
 * strings (one joined string each, as our resolver gives them), and failures as node:dns errors,
 * ENOTFOUND for NXDOMAIN and ENODATA for no data, which mailauth reads as "no key". So the keys
 * come from DNS_SERVERS (the fixture DNS in tests), cached for the analysis like every other answer.
 */
export function mailauthResolver(resolver: Resolver): DNSResolver {
  return async (name, type) => {
    if (!ANSWERED_TYPES.has(type)) throw dnsError('ENOTIMP', name, type);
    const rrtype = type as 'TXT' | 'A' | 'AAAA';
    let response;
    try {
      response = await resolver.query(name, rrtype);
    } catch (error) {
      if (error instanceof DnsTimeoutError) throw dnsError('ETIMEOUT', name, type);
      if (error instanceof DnsServerError) throw dnsError('ESERVFAIL', name, type);
      // A name DNS cannot carry (a label over 63 bytes): no such record.
      if (error instanceof RangeError) throw dnsError('ENOTFOUND', name, type);
      throw error;
    }
    if (response.rcode === 'NXDOMAIN') throw dnsError('ENOTFOUND', name, type);
    if (response.rcode !== 'NOERROR') throw dnsError('ESERVFAIL', name, type);
    if (response.answers.length === 0) throw dnsError('ENODATA', name, type);
    return rrtype === 'TXT' ? response.answers.map((text) => [text as string]) : (response.answers as string[]);
  };
}
