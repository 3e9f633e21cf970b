import type { DecodedPacket } from 'dns-packet';
import type { Rcode } from './types.js';

/** What every response shape (the resolver's, and queryDnssec's) reads off a decoded message the same way. */

const RCODES: Record<number, Rcode> = { 0: 'NOERROR', 1: 'FORMERR', 2: 'SERVFAIL', 3: 'NXDOMAIN', 4: 'NOTIMP', 5: 'REFUSED' };

/** The low four bits of the header; extended rcodes (EDNS) are beyond what the checks need. */
export function rcodeOf(packet: DecodedPacket): Rcode {
  return RCODES[(packet.flags ?? 0) & 0xf] ?? 'OTHER';
}

/** How long a negative answer may be kept: min(SOA TTL, SOA MINIMUM) of the authority section's SOA (RFC 2308 §5), null without one. */
export function negativeTtlOf(packet: DecodedPacket): number | null {
  for (const record of packet.authorities ?? []) {
    if (record.type === 'SOA') return Math.min(record.ttl ?? 0, record.data.minimum ?? 0);
  }
  return null;
}
