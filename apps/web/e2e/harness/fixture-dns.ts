import { mailDomainZone, type DnsFixtureRecords } from '@sendwell/testing';
import { MAIL_TEST_DKIM_PUBLIC_KEY, MAIL_TEST_DKIM_SELECTOR } from './mail-test-dkim-key';

/**
 * Domains the fixture DNS server answers for, so scans and quick checks finish in a moment and the
 * results are known. Everything else (blacklist zones included) answers NXDOMAIN: not listed.
 */
export const HEALTHY_DOMAIN = 'healthy-shop.test';
export const BROKEN_DOMAIN = 'broken-shop.test';
/**
 * The domain the Inbox Testing browser test sends from, over loopback: SPF allows 127.0.0.1 (the
 * test process), its DKIM key is mail-test-dkim-key.ts's, and DMARC rejects what fails.
 */
export const MAIL_TEST_SENDER_DOMAIN = 'newsletter-shop.test';

export const fixtureRecords: Record<string, DnsFixtureRecords> = {
  ...mailDomainZone(HEALTHY_DOMAIN, { mailHost: 'mail', mailAddress: '127.0.0.1', dkimSelector: 'default' }),
  [BROKEN_DOMAIN]: {
    A: ['127.0.0.1'],
    NS: [`ns1.${HEALTHY_DOMAIN}`],
    SOA: { mname: `ns1.${BROKEN_DOMAIN}`, rname: `hostmaster.${BROKEN_DOMAIN}`, serial: 2026010101 },
  },
  ...mailDomainZone(MAIL_TEST_SENDER_DOMAIN, { mailHost: 'mail', mailAddress: '127.0.0.1', spf: 'v=spf1 ip4:127.0.0.1 -all', dmarc: 'v=DMARC1; p=reject; adkim=r; aspf=r', dkimSelector: null }),
  [`${MAIL_TEST_DKIM_SELECTOR}._domainkey.${MAIL_TEST_SENDER_DOMAIN}`]: { TXT: [`v=DKIM1; k=rsa; p=${MAIL_TEST_DKIM_PUBLIC_KEY}`] },
};
