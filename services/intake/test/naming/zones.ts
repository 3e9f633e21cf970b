import type { DnsFixtureRecords } from '@sendwell/testing';

/**
 * Fixture zones for naming source addresses: stand-ins for the catalogue's SPF names (Google's include
 * chain, SendGrid) publishing documentation ranges, and reverse zones for the addresses the tests name.
 */

const txt = (...records: string[]): DnsFixtureRecords => ({ TXT: records });

/** The in-addr.arpa name of an IPv4 address. */
export const ptr4 = (ip: string): string => `${ip.split('.').reverse().join('.')}.in-addr.arpa`;

/** The ip6.arpa name of a fully written IPv6 address (8 groups). */
export function ptr6(ip: string): string {
  const nibbles = ip
    .split(':')
    .map((group) => group.padStart(4, '0'))
    .join('')
    .split('');
  return `${nibbles.reverse().join('.')}.ip6.arpa`;
}

/** The addresses the tests name, by what they are. */
export const ADDR = {
  /** PTR mail-sor-f10.google.com, which points back: Google by its host (outside Google's fixture ranges). */
  googleHost: '192.0.2.10',
  /** PTR claims mail.sendgrid.net, whose A is another address: unconfirmed, not SendGrid. */
  forgedPtr: '192.0.2.20',
  /** PTR Relay.Example.ORG. (mixed case, trailing dot), which points back: a host, no service. */
  plainHost: '192.0.2.30',
  /** Four PTR names, only the fourth confirmed: beyond the three looked at. */
  manyPtrs: '192.0.2.40',
  /** Two PTR names, the second confirmed. */
  secondPtr: '192.0.2.41',
  /** Inside SendGrid's fixture range, and its reverse zone never answers. */
  ptrTimeout: '203.0.113.50',
  /** Inside SendGrid's fixture range, no PTR. */
  sendgridRange: '203.0.113.5',
  /** The same range, stored IPv4-mapped. */
  sendgridMapped: '::ffff:203.0.113.6',
  /** Inside Google's first netblock, PTR confirmed to a host of no catalogue service. */
  googleRangeOtherHost: '198.51.100.7',
  /** Nothing: no PTR, no range. */
  unknown: '192.0.2.200',
  /** IPv6 in Google's fixture range with a confirmed PTR under google.com. */
  googleV6Host: '2001:db8:4860::1a',
  /** IPv6 in Google's fixture range, no PTR. */
  googleV6Range: '2001:db8:4860::2b',
  /** IPv6 nowhere. */
  unknownV6: '2001:db8:ffff::1',
} as const;

export function namingZones(): Record<string, DnsFixtureRecords> {
  return {
    // Google: an include chain to its netblocks, as the real _spf.google.com publishes.
    '_spf.google.com': txt('v=spf1 include:_netblocks.google.com include:_netblocks2.google.com include:_netblocks3.google.com ~all'),
    '_netblocks.google.com': txt('v=spf1 ip4:198.51.100.0/25 ip4:192.0.2.128/26 ~all'),
    '_netblocks2.google.com': txt('v=spf1 ip6:2001:db8:4860::/48 ~all'),
    '_netblocks3.google.com': txt('v=spf1 ip4:203.0.113.224/28 ~all'),
    // SendGrid: plain ranges beside an unrelated TXT record.
    'sendgrid.net': { TXT: ['google-site-verification=fixture', 'v=spf1 ip4:203.0.113.0/25 ip4:198.51.100.128/27 ~all'], MX: [{ priority: 10, exchange: 'mx.sendgrid.net' }] },

    [ptr4(ADDR.googleHost)]: { PTR: ['mail-sor-f10.google.com'] },
    'mail-sor-f10.google.com': { A: [ADDR.googleHost] },

    [ptr4(ADDR.forgedPtr)]: { PTR: ['mail.sendgrid.net'] },
    'mail.sendgrid.net': { A: ['192.0.2.99'] },

    [ptr4(ADDR.plainHost)]: { PTR: ['Relay.Example.ORG.'] },
    'relay.example.org': { A: ['192.0.2.31', ADDR.plainHost] },

    [ptr4(ADDR.manyPtrs)]: { PTR: ['p1.example.org', 'p2.example.org', 'p3.example.org', 'p4.example.org'] },
    'p1.example.org': { A: ['192.0.2.99'] },
    'p2.example.org': { AAAA: ['2001:db8::40'] },
    'p4.example.org': { A: [ADDR.manyPtrs] },

    [ptr4(ADDR.secondPtr)]: { PTR: ['not-a-host', 'mx.second.example.org'] },
    'mx.second.example.org': { A: [ADDR.secondPtr] },

    [ptr4(ADDR.googleRangeOtherHost)]: { PTR: ['o1.mail.example.net'] },
    'o1.mail.example.net': { A: [ADDR.googleRangeOtherHost] },

    [ptr6('2001:db8:4860:0:0:0:0:1a')]: { PTR: ['mail-ipv6.google.com'] },
    'mail-ipv6.google.com': { AAAA: ['2001:db8:4860::1a'], A: ['192.0.2.11'] },
  };
}

export const namingBehaviours = { [ptr4(ADDR.ptrTimeout)]: 'timeout' } as const;
