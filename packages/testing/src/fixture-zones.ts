import { generateKeyPairSync } from 'node:crypto';
import type { DnsFixtureRecords } from './dns-server.js';

export interface MailDomainZoneOptions {
  /** First label of the MX host (`<mailHost>.<name>`); default `mx`. */
  mailHost?: string;
  /** The MX host's address, which the default SPF record authorises; default 192.0.2.25 (TEST-NET-1, RFC 5737). */
  mailAddress?: string;
  /** The apex's SPF TXT record, `null` for none; default `v=spf1 ip4:<mailAddress> -all`. */
  spf?: string | null;
  /** The `_dmarc` TXT record, `null` for none; default `p=reject` with aggregate reports to `dmarc@<name>`. */
  dmarc?: string | null;
  /** The selector publishing an RSA-2048 DKIM key, `null` for none; default `google`, one the scanner tries unasked. */
  dkimSelector?: string | null;
}

let dkimKey: string | undefined;

/** One RSA-2048 public key (base64 SPKI, as in a DKIM `p=` tag) per process: generating one takes a noticeable moment. */
function fixtureDkimKey(): string {
  dkimKey ??= generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({ type: 'spki', format: 'der' }).toString('base64');
  return dkimKey;
}

/**
 * A well-configured mail domain for the fixture DNS server: the apex and `www` on 127.0.0.1, one MX
 * host, two name servers with an SOA, and SPF, DMARC and a DKIM key, each of which can be left out.
 */
export function mailDomainZone(name: string, options: MailDomainZoneOptions = {}): Record<string, DnsFixtureRecords> {
  const {
    mailAddress = '192.0.2.25',
    spf = `v=spf1 ip4:${mailAddress} -all`,
    dmarc = `v=DMARC1; p=reject; rua=mailto:dmarc@${name}`,
    dkimSelector = 'google',
  } = options;
  const mailHost = `${options.mailHost ?? 'mx'}.${name}`;
  return {
    [name]: {
      A: ['127.0.0.1'],
      MX: [{ priority: 10, exchange: mailHost }],
      NS: [`ns1.${name}`, `ns2.${name}`],
      SOA: { mname: `ns1.${name}`, rname: `hostmaster.${name}`, serial: 2026112101 },
      TXT: spf === null ? [] : [spf],
    },
    [`www.${name}`]: { A: ['127.0.0.1'] },
    [mailHost]: { A: [mailAddress] },
    [`ns1.${name}`]: { A: ['127.0.0.1'] },
    [`ns2.${name}`]: { A: ['127.0.0.1'] },
    ...(dmarc === null ? {} : { [`_dmarc.${name}`]: { TXT: [dmarc] } }),
    ...(dkimSelector === null ? {} : { [`${dkimSelector}._domainkey.${name}`]: { TXT: [`v=DKIM1; k=rsa; p=${fixtureDkimKey()}`] } }),
  };
}

/** The block lists of tests on the fixture DNS server: one IP list and one domain list, listing nothing real. */
export const FIXTURE_BLOCKLISTS = { ip: 'bl.fixture.test', domain: 'dbl.fixture.test' } as const;

/**
 * The fixture block lists' RFC 5782 §5 test points (127.0.0.2 and "test" listed, 127.0.0.1 and
 * "invalid" not), so the scanner's self-testing registry finds them healthy. `listEverything` makes
 * the IP list answer 127.0.0.2 for every address, as a lapsed zone with a wildcard does.
 */
export function blocklistFixtureZones(options: { listEverything?: boolean } = {}): Record<string, DnsFixtureRecords> {
  const listed: DnsFixtureRecords = { A: ['127.0.0.2'], TXT: ['Test point (RFC 5782 §5)'] };
  return {
    [`2.0.0.127.${FIXTURE_BLOCKLISTS.ip}`]: listed,
    [`test.${FIXTURE_BLOCKLISTS.domain}`]: listed,
    ...(options.listEverything ? { [`*.${FIXTURE_BLOCKLISTS.ip}`]: { A: ['127.0.0.2'] } } : {}),
  };
}
