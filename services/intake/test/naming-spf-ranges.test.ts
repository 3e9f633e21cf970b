import { sendingServiceById, type SendingService } from '@sendwell/contracts';
import { startDnsServer, type DnsFixtureRecords, type TestDnsServer } from '@sendwell/testing';
import ipaddr from 'ipaddr.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createNamingDns, type NamingDns } from '../src/naming/dns.js';
import { ServiceRanges } from '../src/naming/service-ranges.js';
import { resolveSpfRanges } from '../src/naming/spf-ranges.js';
import { silentLogger } from './fixtures.js';
import { namingZones } from './naming/zones.js';

const txt = (...records: string[]): DnsFixtureRecords => ({ TXT: records });

const records: Record<string, DnsFixtureRecords> = {
  ...namingZones(),
  // An include loop.
  'loop-a.test': txt('v=spf1 ip4:192.0.2.0/28 include:loop-b.test -all'),
  'loop-b.test': txt('v=spf1 ip4:192.0.2.16/28 include:loop-a.test include:loop-b.test -all'),
  // Twelve includes side by side: only ten are followed.
  'wide.test': txt(`v=spf1 ${Array.from({ length: 12 }, (_, i) => `include:w${i + 1}.wide.test`).join(' ')} -all`),
  // A and MX, with prefix lengths; the MX host has both families.
  'amx.test': { ...txt('v=spf1 a:host.amx.test/28 mx//64 -all'), MX: [{ priority: 20, exchange: 'mx2.amx.test' }, { priority: 10, exchange: 'mx1.amx.test' }] },
  'host.amx.test': { A: ['192.0.2.77'] },
  'mx1.amx.test': { A: ['198.51.100.200'], AAAA: ['2001:db8:a::25'] },
  // Hostile or sloppy: world-wide ranges, non-pass qualifiers, macros, 0x forms, a redirect beside all.
  'hostile.test': txt('v=spf1 ip4:0.0.0.0/0 ip6:::/0 ip4:0x7f.0.0.1 ip4:192.0.2.1/33 -ip4:198.51.100.0/24 ~ip4:198.51.100.0/24 include:%{i}.macro.test ip4:192.0.2.1 ip6:2001:db8:1::/48 ip4:203.0.113.9/24 all redirect=redirected.test'),
  'redirect.test': txt('v=spf1 redirect=redirected.test'),
  'redirected.test': txt('v=spf1 ip4:203.0.113.64/26 -all'),
  'two.test': txt('v=spf1 ip4:192.0.2.1 -all', 'v=spf1 ip4:192.0.2.2 -all'),
  'slowinc.test': txt('v=spf1 ip4:192.0.2.1 include:timeout.test include:redirected.test -all'),
};
for (let i = 1; i <= 12; i++) records[`w${i}.wide.test`] = txt(`v=spf1 ip4:10.${i}.0.0/16 -all`);
// A chain eight includes deep: cut at the depth cap.
for (let i = 0; i < 8; i++) records[`c${i}.chain.test`] = txt(`v=spf1 ip4:10.100.${i}.0/24 include:c${i + 1}.chain.test -all`);

let dns: TestDnsServer;
let resolver: NamingDns;

beforeAll(async () => {
  // TTL 0: c-ares keeps no answers, so records changed by a test are asked again.
  dns = await startDnsServer({ records, ttl: 0, behaviours: { 'timeout.test': 'timeout' } });
  resolver = createNamingDns({ servers: [dns.url], timeoutMs: 150, tries: 1 });
});

afterAll(async () => {
  await dns?.close();
});

beforeEach(() => dns.resetLog());

const cidrs = (result: { ranges: Array<{ cidr: string }> }) => result.ranges.map((range) => range.cidr);
const txtQueries = () => dns.queryLog.filter((entry) => entry.type === 'TXT').map((entry) => entry.name);

describe('resolveSpfRanges', () => {
  it('follows an include chain to the networks it publishes', async () => {
    const result = await resolveSpfRanges(resolver, ['_spf.google.com']);
    expect(cidrs(result)).toEqual(['198.51.100.0/25', '192.0.2.128/26', '2001:db8:4860::/48', '203.0.113.224/28']);
    expect(result).toMatchObject({ lookups: 3, failed: false, truncated: false });
  });

  it('stops an include loop without spending the budget on it', async () => {
    const result = await resolveSpfRanges(resolver, ['loop-a.test']);
    expect(cidrs(result)).toEqual(['192.0.2.0/28', '192.0.2.16/28']);
    expect(result).toMatchObject({ lookups: 1, failed: false });
    expect(txtQueries()).toEqual(['loop-a.test', 'loop-b.test']);
  });

  it('follows at most ten lookups', async () => {
    const result = await resolveSpfRanges(resolver, ['wide.test']);
    expect(cidrs(result)).toEqual(Array.from({ length: 10 }, (_, i) => `10.${i + 1}.0.0/16`));
    expect(result).toMatchObject({ lookups: 10, truncated: true, failed: false });
    expect(txtQueries()).toHaveLength(11);
    expect(txtQueries()).not.toContain('w11.wide.test');
  });

  it('cuts an over-long include chain at the depth cap', async () => {
    const result = await resolveSpfRanges(resolver, ['c0.chain.test']);
    expect(cidrs(result)).toEqual(Array.from({ length: 6 }, (_, i) => `10.100.${i}.0/24`));
    expect(result).toMatchObject({ lookups: 5, truncated: true });
    expect(txtQueries()).toHaveLength(6);
  });

  it('resolves a and mx mechanisms with their prefix lengths, within the budget', async () => {
    const result = await resolveSpfRanges(resolver, ['amx.test']);
    expect(cidrs(result)).toEqual(['192.0.2.64/28', '198.51.100.200/32', '2001:db8:a::/64']);
    // a: A + AAAA; mx: MX, then A + AAAA of each of the two hosts.
    expect(result.lookups).toBe(7);
    const limited = await resolveSpfRanges(resolver, ['amx.test'], { maxLookups: 3, maxDepth: 5, maxRanges: 100 });
    expect(cidrs(limited)).toEqual(['192.0.2.64/28']);
    expect(limited).toMatchObject({ lookups: 3, truncated: true });
  });

  it('keeps only plain, passing, narrow-enough networks; ignores a redirect beside all', async () => {
    const result = await resolveSpfRanges(resolver, ['hostile.test']);
    expect(cidrs(result)).toEqual(['192.0.2.1/32', '2001:db8:1::/48', '203.0.113.0/24']);
    expect(result.lookups).toBe(0);
    expect(cidrs(await resolveSpfRanges(resolver, ['redirect.test']))).toEqual(['203.0.113.64/26']);
    expect(cidrs(await resolveSpfRanges(resolver, ['two.test']))).toEqual([]);
    expect(cidrs(await resolveSpfRanges(resolver, ['nothing.test']))).toEqual([]);
  });

  it('reports a timed-out include as failed and keeps the rest', async () => {
    const result = await resolveSpfRanges(resolver, ['slowinc.test']);
    expect(cidrs(result)).toEqual(['192.0.2.1/32', '203.0.113.64/26']);
    expect(result.failed).toBe(true);
  });
});

describe('ServiceRanges', () => {
  const sendgrid = sendingServiceById('sendgrid') as SendingService;
  const google = sendingServiceById('google-workspace') as SendingService;
  const services = [google, sendgrid, { ...sendgrid, id: 'sendgrid-narrow', spf: ['narrow.test'] }];

  it('matches IPv4, IPv6 and IPv4-mapped addresses, the narrowest range winning', async () => {
    dns.setName('narrow.test', txt('v=spf1 ip4:203.0.113.8/29 -all'));
    const ranges = new ServiceRanges(resolver, silentLogger, { services });
    const of = (ip: string) => ranges.serviceFor(ipaddr.process(ip));
    expect(await of('203.0.113.5')).toBe('sendgrid');
    expect(await of('203.0.113.9')).toBe('sendgrid-narrow');
    expect(await of('::ffff:203.0.113.5')).toBe('sendgrid');
    expect(await of('2001:db8:4860::ffff')).toBe('google-workspace');
    expect(await of('2001:db8:4861::1')).toBeNull();
    expect(await of('192.0.2.1')).toBeNull();
    // One resolution for all those questions.
    expect(txtQueries().filter((name) => name === 'sendgrid.net')).toHaveLength(1);
  });

  it('resolves again only after six hours, and keeps its ranges when that fails', async () => {
    let now = 1_000_000;
    const ranges = new ServiceRanges(resolver, silentLogger, { services: [sendgrid], now: () => now });
    const address = ipaddr.parse('203.0.113.5');
    const moved = ipaddr.parse('198.51.100.50');
    try {
      expect(await ranges.serviceFor(address)).toBe('sendgrid');
      dns.setRecords('sendgrid.net', 'TXT', ['v=spf1 ip4:198.51.100.0/26 -all']);
      now += 5 * 3_600_000;
      expect(await ranges.serviceFor(moved)).toBeNull();
      expect(txtQueries()).toEqual(['sendgrid.net']);

      now += 3_600_000;
      expect(await ranges.serviceFor(moved)).toBe('sendgrid');
      expect(await ranges.serviceFor(address)).toBeNull();

      dns.setBehaviour('sendgrid.net', 'timeout');
      now += 6 * 3_600_000;
      expect(await ranges.serviceFor(moved)).toBe('sendgrid');
      expect(ranges.rangesOf('sendgrid').map((range) => range.cidr)).toEqual(['198.51.100.0/26']);
      expect(txtQueries()).toHaveLength(3);

      // A failure is retried after fifteen minutes, not six hours.
      dns.setBehaviour('sendgrid.net', undefined);
      dns.setRecords('sendgrid.net', 'TXT', ['v=spf1 ip4:203.0.113.0/25 -all']);
      now += 10 * 60_000;
      expect(await ranges.serviceFor(address)).toBeNull();
      now += 5 * 60_000;
      expect(await ranges.serviceFor(address)).toBe('sendgrid');
    } finally {
      dns.setBehaviour('sendgrid.net', undefined);
      dns.setName('sendgrid.net', namingZones()['sendgrid.net']);
    }
  });

  it('shares one resolution between concurrent callers', async () => {
    const ranges = new ServiceRanges(resolver, silentLogger, { services: [google] });
    const answers = await Promise.all(['198.51.100.1', '192.0.2.130', '203.0.113.230'].map((ip) => ranges.serviceFor(ipaddr.parse(ip))));
    expect(answers).toEqual(['google-workspace', 'google-workspace', 'google-workspace']);
    expect(txtQueries().filter((name) => name === '_spf.google.com')).toHaveLength(1);
  });
});
