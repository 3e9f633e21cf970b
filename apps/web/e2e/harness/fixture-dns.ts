import { mailDomainZone, type DnsFixtureRecords } from '@sendwell/testing';

/**
 * Domains the fixture DNS server answers for, so scans and quick checks finish in a moment and the
 * results are known. Everything else (blacklist zones included) answers NXDOMAIN: not listed.
 */
export const HEALTHY_DOMAIN = 'healthy-shop.test';
export const BROKEN_DOMAIN = 'broken-shop.test';

export const fixtureRecords: Record<string, DnsFixtureRecords> = {
  ...mailDomainZone(HEALTHY_DOMAIN, { mailHost: 'mail', mailAddress: '127.0.0.1', dkimSelector: 'default' }),
  [BROKEN_DOMAIN]: {
    A: ['127.0.0.1'],
    NS: [`ns1.${HEALTHY_DOMAIN}`],
    SOA: { mname: `ns1.${BROKEN_DOMAIN}`, rname: `hostmaster.${BROKEN_DOMAIN}`, serial: 2026010101 },
  },
};
