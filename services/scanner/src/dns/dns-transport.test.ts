import dnsPacket from 'dns-packet';
import { describe, expect, it } from 'vitest';
import { EDNS_UDP_PAYLOAD_SIZE, encodeQuery } from './dns-transport.js';
import type { RecordType } from './types.js';

/** The reference encoding: what the transport sent before it wrote queries itself. */
function reference(id: number, name: string, type: RecordType, recurse: boolean): Buffer {
  return dnsPacket.encode({
    type: 'query',
    id,
    flags: recurse ? dnsPacket.RECURSION_DESIRED : 0,
    questions: [{ name, type, class: 'IN' }],
    additionals: [
      { type: 'OPT', name: '.', udpPayloadSize: EDNS_UDP_PAYLOAD_SIZE, extendedRcode: 0, ednsVersion: 0, flags: 0, flag_do: false, options: [] },
    ],
  });
}

describe('encodeQuery', () => {
  const types: RecordType[] = ['A', 'AAAA', 'MX', 'TXT', 'NS', 'SOA', 'CNAME', 'PTR', 'TLSA'];
  const names = [
    'example.com',
    'a',
    's1._domainkey.example.co.uk',
    '2.0.0.127.zen.spamhaus.org',
    'b.a.9.8.7.6.5.0.4.0.0.0.3.0.0.0.2.0.0.0.1.0.0.0.0.0.0.0.1.2.3.4.ip6.arpa',
    `${'x'.repeat(63)}.example`,
    'bücher.example',
  ];

  it('writes the same bytes as dns-packet for every type, name and flag', () => {
    for (const type of types) {
      for (const name of names) {
        for (const recurse of [true, false]) {
          const id = (name.length * 997 + type.length) & 0xffff;
          expect(encodeQuery(id, { name, type }, recurse).equals(reference(id, name, type, recurse))).toBe(true);
        }
      }
    }
  });

  it('round-trips through a decoder', () => {
    const decoded = dnsPacket.decode(encodeQuery(4242, { name: 'selector1._domainkey.example.com', type: 'TXT' }, true));
    expect(decoded.id).toBe(4242);
    expect(decoded.flag_rd).toBe(true);
    expect(decoded.questions).toEqual([{ name: 'selector1._domainkey.example.com', type: 'TXT', class: 'IN' }]);
    expect(decoded.additionals?.[0]).toMatchObject({ type: 'OPT', udpPayloadSize: EDNS_UDP_PAYLOAD_SIZE });
  });
});
