import { checkDetailsByType } from '@sendwell/contracts';
import { startDnsServer, type TestDnsServer } from '@sendwell/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_DNSBL_DOMAIN_ZONES, DEFAULT_DNSBL_IP_ZONES } from '../../src/checks/blacklist/zones.js';
import { blacklistCheck } from '../../src/checks/blacklist/blacklist.check.js';
import type { CheckResult, ScanConfig } from '../../src/checks/types.js';
import { checkContext } from './harness.js';

/**
 * The blacklist check against a real DNS server serving fixture block lists. Zone names that the
 * built-in metadata knows (zen.spamhaus.org, dbl.spamhaus.org, multi.uribl.com) get their real
 * refusal semantics; the others (*.bl.test) are generic lists.
 */

let dns: TestDnsServer;

async function scan(domain: string, config: Partial<ScanConfig>): Promise<CheckResult> {
  const result = await blacklistCheck(checkContext(domain, dns, { dnsTimeoutMs: 300, config }));
  // Every result must be storable: the details parse with the contracts' schema.
  expect(() => checkDetailsByType.blacklist.parse(result.details)).not.toThrow();
  return result;
}

type Site = { name: string; zone: string; status: string; lookupUrl: string | null; removalUrl: string | null };
type IpResult = { ip: string; clean: boolean; source: string; listedServices: Array<{ service: string; removalUrl: string | null; reason: string | null }> };
const sites = (result: CheckResult) => result.details['sites'] as Site[];
const site = (result: CheckResult, zone: string) => sites(result).find((s) => s.zone === zone);
const ipResults = (result: CheckResult) => result.details['allIpResults'] as IpResult[];
const codes = (result: CheckResult) => result.details.findings.map((f) => f.code);

beforeAll(async () => {
  dns = await startDnsServer({
    records: {
      'example.test': {
        MX: [
          { priority: 10, exchange: 'mx1.example.test' },
          { priority: 20, exchange: 'mx2.example.test' },
        ],
        A: ['192.0.2.10'],
        AAAA: ['2001:db8::10'],
      },
      'mx1.example.test': { A: ['192.0.2.20'] },
      'mx2.example.test': { A: ['192.0.2.30'], AAAA: ['2001:db8::30'] },
      'clean.test': { MX: [{ priority: 10, exchange: 'mx.clean.test' }] },
      'mx.clean.test': { A: ['198.51.100.1'] },
      'nomail.test': { TXT: ['v=spf1 -all'] },
      'nullmx.test': { MX: [{ priority: 0, exchange: '.' }] },
      // One host named twice, in another case and with the root's dot: one host to check.
      'twice.test': {
        MX: [
          { priority: 20, exchange: 'mx.clean.test' },
          { priority: 10, exchange: 'MX.Clean.TEST.' },
        ],
      },

      // A generic list with one exact entry (mx1's address) and its TXT reason.
      '20.2.0.192.listed.bl.test': { A: ['127.0.0.2'], TXT: ['Listed for spam trap hits, see https://bl.test/20'] },
      // Its IPv6 entry for mx2's 2001:db8::30, nibble-reversed (RFC 5782 §2.4).
      '0.3.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.8.b.d.0.1.0.0.2.listed.bl.test': { A: ['127.0.0.3'] },
      // A list that exists but lists nothing here: an unrelated entry keeps the zone non-empty.
      '2.0.0.127.clean.bl.test': { A: ['127.0.0.2'] },
      // Spamhaus refuses public resolvers with 127.255.255.254: unknown, never listed.
      '*.zen.spamhaus.org': { A: ['127.255.255.254'], TXT: ['Error: open resolver; see https://www.spamhaus.org/returnc/pub/'] },
      // A lapsed list whose domain now resolves everything to a web address.
      '*.hijacked.bl.test': { A: ['192.0.2.99'] },
      // A list the scanner does not know that answers its own error code for every query.
      '*.errors.bl.test': { A: ['127.255.255.254'] },
      // A list whose listing codes are configured (coded.bl.test=127.0.0.4): 127.0.0.2 is not one of them.
      '1.100.51.198.coded.bl.test': { A: ['127.0.0.2'] },
      '1.100.51.198.coded4.bl.test': { A: ['127.0.0.4'] },
      // Domain lists.
      'example.test.dbl.spamhaus.org': { A: ['127.0.1.2'], TXT: ['https://www.spamhaus.org/query/domain/example.test'] },
      '*.multi.uribl.com': { A: ['127.0.0.1'] },
      'clean.test.dbl.nordspam.com': { A: ['127.0.0.1'] },
    },
    behaviours: { 'slow.bl.test': 'timeout', 'dnsdown.test': 'timeout', 'delay.bl.test': { delayMs: 100 } },
  });
});

afterAll(async () => {
  await dns.close();
});

describe('blacklistCheck', () => {
  it('reports a listed MX address with the TXT reason, the IPv6 nibble listing and a domain listing', async () => {
    dns.resetLog();
    const result = await scan('example.test', {
      dnsblIpZones: ['listed.bl.test', 'clean.bl.test'],
      dnsblDomainZones: ['dbl.spamhaus.org'],
    });

    expect(result.status).toBe('error');
    expect(result.type).toBe('blacklist');
    expect(result.value).toBe('Listed on 2 of 3 lists');
    expect(result.message).toMatch(/^Listed on 2 block lists: listed\.bl\.test, Spamhaus DBL\.$/);
    expect(result.recommendation).toMatch(/request removal/);

    // The MX hosts' addresses and the domain's own, IPv4 and IPv6.
    expect(ipResults(result).map((r) => r.ip).sort()).toEqual(
      ['192.0.2.10', '192.0.2.20', '192.0.2.30', '2001:db8::10', '2001:db8::30'].sort(),
    );
    expect(result.details['totalIpsChecked']).toBe(5);
    expect(result.details['listedIpsCount']).toBe(2);
    expect(result.details['cleanIps']).toBe(3);

    const mx1 = ipResults(result).find((r) => r.ip === '192.0.2.20');
    expect(mx1).toMatchObject({ clean: false, source: 'MX mx1.example.test' });
    expect(mx1?.listedServices).toEqual([
      expect.objectContaining({ service: 'listed.bl.test', reason: 'Listed for spam trap hits, see https://bl.test/20' }),
    ]);
    expect(ipResults(result).find((r) => r.ip === '2001:db8::30')).toMatchObject({ clean: false, source: 'MX mx2.example.test' });
    expect(ipResults(result).find((r) => r.ip === '192.0.2.10')).toMatchObject({ clean: true, source: 'A example.test' });

    expect(site(result, 'listed.bl.test')?.status).toBe('listed');
    expect(site(result, 'clean.bl.test')?.status).toBe('clean');
    expect(site(result, 'dbl.spamhaus.org')).toMatchObject({
      name: 'Spamhaus DBL',
      status: 'listed',
      lookupUrl: 'https://check.spamhaus.org/results/?query=example.test',
    });

    const ipFinding = result.details.findings.find((f) => f.code === 'BLACKLIST_IP_LISTED' && f['ip'] === '192.0.2.20');
    expect(ipFinding).toMatchObject({ severity: 'error', rfc: 'RFC 5782 §2.1', list: 'listed.bl.test' });
    expect(ipFinding?.message).toBe(
      '192.0.2.20 (MX mx1.example.test) is listed on listed.bl.test (listed.bl.test, answer 127.0.0.2): Listed for spam trap hits, see https://bl.test/20.',
    );
    expect(result.details.findings.find((f) => f['ip'] === '2001:db8::30')).toMatchObject({ rfc: 'RFC 5782 §2.4' });
    const domainFinding = result.details.findings.find((f) => f.code === 'BLACKLIST_DOMAIN_LISTED');
    expect(domainFinding?.message).toContain('spam domain');
    expect(result.details['domainListings']).toEqual([expect.objectContaining({ zone: 'dbl.spamhaus.org', codes: ['127.0.1.2'] })]);

    // The IPv6 query used the 32-nibble name.
    expect(dns.queryLog.map((q) => q.name)).toContain(
      '0.3.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.8.b.d.0.1.0.0.2.listed.bl.test',
    );
    // A TXT reason is fetched only for listings.
    expect(dns.queryLog.filter((q) => q.type === 'TXT').map((q) => q.name).sort()).toEqual(
      [
        '20.2.0.192.listed.bl.test',
        '0.3.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.8.b.d.0.1.0.0.2.listed.bl.test',
        'example.test.dbl.spamhaus.org',
      ].sort(),
    );
  });

  it('is valid when every list answers clean', async () => {
    const result = await scan('clean.test', { dnsblIpZones: ['clean.bl.test', 'listed.bl.test'], dnsblDomainZones: ['dbl.spamhaus.org'] });
    expect(result.status).toBe('valid');
    expect(result.value).toBe('Clean on 3 of 3 lists');
    expect(result.message).toBe('Not listed on any of the 3 block lists checked.');
    expect(result.recommendation).toBeNull();
    expect(result.details.findings).toEqual([]);
    expect(ipResults(result)).toEqual([expect.objectContaining({ ip: '198.51.100.1', clean: true, source: 'MX mx.clean.test' })]);
    expect(sites(result).every((s) => s.status === 'clean')).toBe(true);
  });

  it('treats refusal codes (Spamhaus 127.255.255.254, URIBL 127.0.0.1) as unknown, never listed', async () => {
    const result = await scan('clean.test', {
      dnsblIpZones: ['zen.spamhaus.org', 'clean.bl.test'],
      dnsblDomainZones: ['multi.uribl.com'],
    });
    expect(result.status).toBe('valid');
    expect(site(result, 'zen.spamhaus.org')?.status).toBe('unknown');
    expect(site(result, 'multi.uribl.com')?.status).toBe('unknown');
    expect(site(result, 'clean.bl.test')?.status).toBe('clean');
    expect(result.details['listedIpsCount']).toBe(0);
    expect(codes(result)).toEqual(['BLACKLIST_QUERY_REFUSED', 'BLACKLIST_QUERY_REFUSED']);
    const spamhaus = result.details.findings.find((f) => f['zone'] === 'zen.spamhaus.org');
    expect(spamhaus).toMatchObject({ severity: 'info' });
    expect(spamhaus?.message).toContain('queries through public or open resolvers are blocked');
    expect(result.message).toBe('Not listed on any block list that answered (2 of 3 could not be checked).');
  });

  it('treats a list that never answers, or answers outside 127/8, as unknown', async () => {
    const started = Date.now();
    const result = await scan('clean.test', {
      dnsblIpZones: ['slow.bl.test', 'hijacked.bl.test', 'clean.bl.test'],
      dnsblDomainZones: ['dbl.nordspam.com'],
    });
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(result.status).toBe('valid');
    expect(site(result, 'slow.bl.test')?.status).toBe('unknown');
    expect(site(result, 'hijacked.bl.test')?.status).toBe('unknown');
    // NordSpam has no refusal code of its own, but 127.0.0.1 is not a listing for any list.
    expect(site(result, 'dbl.nordspam.com')?.status).toBe('unknown');
    expect(result.details.findings.find((f) => f['zone'] === 'slow.bl.test')).toMatchObject({
      code: 'BLACKLIST_LIST_UNREACHABLE',
      severity: 'info',
      message: 'slow.bl.test (slow.bl.test) could not be checked: the list did not answer in time. It is reported as unknown, not listed.',
    });
    expect(result.details.findings.find((f) => f['zone'] === 'hijacked.bl.test')).toMatchObject({ code: 'BLACKLIST_UNEXPECTED_ANSWER' });
    expect(result.details.findings.find((f) => f['zone'] === 'hijacked.bl.test')?.message).toContain('outside 127.0.0.0/8');
    expect(result.details.findings.find((f) => f['zone'] === 'dbl.nordspam.com')).toMatchObject({ code: 'BLACKLIST_QUERY_REFUSED' });
  });

  it('reads only 127.0.0.2–127.0.0.255 as a listing from a list it does not know, and only the configured codes when given', async () => {
    const result = await scan('clean.test', {
      dnsblIpZones: [{ zone: 'errors.bl.test' }, { zone: 'coded.bl.test', listedCodes: ['127.0.0.4'] }, { zone: 'coded4.bl.test', listedCodes: ['127.0.0.4'] }],
      dnsblDomainZones: ['clean.bl.test'],
    });
    expect(site(result, 'errors.bl.test')?.status).toBe('unknown');
    expect(site(result, 'coded.bl.test')?.status).toBe('unknown');
    expect(site(result, 'coded4.bl.test')?.status).toBe('listed');
    expect(result.details['listedIpsCount']).toBe(1);
    // The answer that could not be read is in the finding, as unknown, never as listed.
    expect(result.details.findings.find((f) => f['zone'] === 'errors.bl.test')).toMatchObject({
      code: 'BLACKLIST_QUERY_REFUSED',
      message: expect.stringContaining('answer 127.255.255.254'),
    });
    expect(result.details.findings.find((f) => f['zone'] === 'coded.bl.test')?.message).toContain('answer 127.0.0.2');
  });

  it('is unknown when every query fails, or the mail hosts cannot be looked up', async () => {
    const result = await scan('clean.test', { dnsblIpZones: ['slow.bl.test'], dnsblDomainZones: ['slow.bl.test'] });
    expect(result.status).toBe('unknown');
    expect(result.value).toBeNull();
    expect(result.details['error']).toBe('Every block list query failed or was refused.');

    const hostsDown = await scan('dnsdown.test', { dnsblIpZones: ['listed.bl.test'], dnsblDomainZones: ['dbl.spamhaus.org'] });
    expect(hostsDown.status).toBe('unknown');
    expect(hostsDown.details['error']).toBe('The mail host lookups failed.');
    expect(hostsDown.details.findings.map((f) => f.code)).toEqual(['BLACKLIST_NO_MAIL_HOSTS', 'BLACKLIST_HOST_LOOKUP_FAILED']);
  });

  it('checks the domain lists when the domain has no mail host or address', async () => {
    const result = await scan('nomail.test', { dnsblIpZones: ['listed.bl.test'], dnsblDomainZones: ['dbl.spamhaus.org'] });
    expect(result.status).toBe('valid');
    expect(result.details['totalIpsChecked']).toBe(0);
    expect(codes(result)).toEqual(['BLACKLIST_NO_MAIL_HOSTS']);
    expect(site(result, 'dbl.spamhaus.org')?.status).toBe('clean');
    // Without an address, IP lists link to their home page.
    expect(site(result, 'listed.bl.test')?.lookupUrl).toBeNull();

    const nullMx = await scan('nullmx.test', { dnsblIpZones: ['listed.bl.test'], dnsblDomainZones: [] });
    expect(nullMx.details.findings.find((f) => f.code === 'BLACKLIST_NO_MAIL_HOSTS')).toMatchObject({ code: 'BLACKLIST_NO_MAIL_HOSTS', rfc: 'RFC 7505 §3' });
  });

  it('plans the MX hosts as the other mail checks do: one host however it is spelt', async () => {
    const result = await scan('twice.test', { dnsblIpZones: ['clean.bl.test'], dnsblDomainZones: [] });
    expect(ipResults(result).map((r) => [r.ip, r.source])).toEqual([['198.51.100.1', 'MX mx.clean.test']]);
  });

  it('keeps at most 12 list queries in flight', async () => {
    // 24 lists answering after 100 ms: two rounds of 12, not one burst of 24.
    const zones = Array.from({ length: 24 }, (_, i) => `z${i}.delay.bl.test`);
    const started = Date.now();
    const result = await scan('clean.test', { dnsblIpZones: zones, dnsblDomainZones: ['dbl.spamhaus.org'] });
    const elapsed = Date.now() - started;
    expect(result.status).toBe('valid');
    expect(elapsed).toBeGreaterThanOrEqual(195);
    expect(elapsed).toBeLessThan(1_000);
  });

  it('falls back to the built-in lists when none are configured', async () => {
    expect(DEFAULT_DNSBL_IP_ZONES.length).toBeGreaterThanOrEqual(20);
    dns.resetLog();
    const result = await scan('clean.test', {});
    expect(sites(result)).toHaveLength(DEFAULT_DNSBL_IP_ZONES.length + DEFAULT_DNSBL_DOMAIN_ZONES.length);
    expect(site(result, 'b.barracudacentral.org')?.name).toBe('Barracuda Reputation Block List');
    // One IPv4 address against each IP list, the domain against each domain list (no duplicates).
    const aQueries = dns.queryLog.filter((q) => q.type === 'A' && q.name !== 'mx.clean.test' && q.name !== 'clean.test');
    expect(aQueries).toHaveLength(DEFAULT_DNSBL_IP_ZONES.length + DEFAULT_DNSBL_DOMAIN_ZONES.length);
    // Spamhaus ZEN refuses, URIBL and NordSpam answer 127.0.0.1: unknown; everything else is clean.
    expect(sites(result).filter((s) => s.status !== 'clean').map((s) => [s.zone, s.status])).toEqual([
      ['zen.spamhaus.org', 'unknown'],
      ['multi.uribl.com', 'unknown'],
      ['dbl.nordspam.com', 'unknown'],
    ]);
    expect(result.status).toBe('valid');
  });

  it('keeps a list key out of the error of a question that cannot be asked', async () => {
    // A domain of 240 characters: under a keyed domain list the name asked is over 253, which the resolver refuses, quoting it.
    const longDomain = `${'a'.repeat(60)}.${'b'.repeat(60)}.${'c'.repeat(60)}.${'d'.repeat(53)}.test`;
    const key = 's3cr3tkey0123456789';
    const failure = blacklistCheck(checkContext(longDomain, dns, { dnsTimeoutMs: 300, config: { dnsblDomainZones: [`${key}.dbl.dq.spamhaus.net`] } }));
    await expect(failure).rejects.toThrow('the question to Spamhaus DBL (DQS) failed (RangeError)');
    await expect(failure).rejects.not.toThrow(key);
  });
});
