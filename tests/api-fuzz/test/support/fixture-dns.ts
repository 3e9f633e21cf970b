import { mailDomainZone, type DnsFixtureRecords } from '@sendwell/testing';

/** The one domain the fixture DNS server answers for; scans of it finish in a moment. Others are NXDOMAIN. */
export const FIXTURE_DOMAIN = 'fuzz-shop.test';

export const fixtureRecords: Record<string, DnsFixtureRecords> = mailDomainZone(FIXTURE_DOMAIN, { mailHost: 'mail', mailAddress: '127.0.0.1' });
