import { startDnsServer, type TestDnsServer } from '@sendwell/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { blacklistCheck } from '../../src/checks/blacklist/blacklist.check.js';
import type { CheckContext } from '../../src/checks/types.js';
import { createDnsTransport, type DnsTransport } from '../../src/dns/dns-transport.js';
import { createResolver } from '../../src/dns/resolver.js';
import { isOutsideDomain, SharedAnswerCache } from '../../src/dns/shared-cache.js';
import { DnsTimeoutError, type DnsResponse } from '../../src/dns/types.js';

let dns: TestDnsServer;
let transport: DnsTransport;
let clock = 0;
let cache: SharedAnswerCache;

const now = () => clock;
/** `null`: a resolver without the shared cache. */
function resolver(withCache: SharedAnswerCache | null = cache) {
  return createResolver({ servers: [{ host: dns.host, port: dns.port }], timeoutMs: 300, retries: 0, transport, ...(withCache ? { sharedCache: withCache } : {}) });
}

function response(partial: Partial<DnsResponse>): DnsResponse {
  return { rcode: 'NOERROR', answers: [], authoritative: false, timeMs: 1, truncatedRetriedOverTcp: false, ttl: 0, negativeTtl: null, ...partial };
}

beforeAll(async () => {
  transport = createDnsTransport();
  dns = await startDnsServer({
    ttl: 120,
    records: {
      '2.0.2.192.zen.example': { A: ['127.0.0.2'], TXT: ['listed for spam'] },
      'mx.provider.example': { A: ['192.0.2.2'] },
      'a.example': { MX: [{ priority: 10, exchange: 'mx.provider.example' }] },
      'b.example': { MX: [{ priority: 10, exchange: 'mx.provider.example' }] },
    },
    behaviours: { 'dead.zen.example': 'timeout', 'broken.zen.example': 'servfail' },
  });
});

afterAll(async () => {
  await transport.close();
  await dns.close();
});

beforeEach(() => {
  clock = 1_000_000;
  cache = new SharedAnswerCache({ now });
  dns.resetLog();
});

describe('SharedAnswerCache (unit)', () => {
  it('keeps a positive answer for its TTL, capped at maxTtlSeconds', () => {
    const small = new SharedAnswerCache({ now, maxTtlSeconds: 100 });
    small.set('a', response({ answers: ['192.0.2.1'], ttl: 30 }));
    small.set('b', response({ answers: ['192.0.2.1'], ttl: 86_400 }));
    clock += 29_999;
    expect(small.get('a')?.answers).toEqual(['192.0.2.1']);
    clock += 1;
    expect(small.get('a')).toBeUndefined();
    clock += 69_999;
    expect(small.get('b')).toBeDefined();
    clock += 1;
    expect(small.get('b')).toBeUndefined();
  });

  it('keeps a negative answer for the SOA minimum (RFC 2308), else the default, and nothing with TTL 0', () => {
    cache.set('soa', response({ rcode: 'NXDOMAIN', negativeTtl: 10 }));
    cache.set('nosoa', response({ rcode: 'NXDOMAIN', negativeTtl: null }));
    cache.set('nodata', response({ rcode: 'NOERROR', negativeTtl: 5 }));
    cache.set('zero', response({ answers: ['x'], ttl: 0 }));
    expect(cache.get('zero')).toBeUndefined();
    clock += 5_000;
    expect(cache.get('nodata')).toBeUndefined();
    expect(cache.get('soa')?.rcode).toBe('NXDOMAIN');
    clock += 5_000;
    expect(cache.get('soa')).toBeUndefined();
    expect(cache.get('nosoa')).toBeDefined();
    clock += 50_000;
    expect(cache.get('nosoa')).toBeUndefined();
  });

  it('never keeps SERVFAIL, REFUSED or other rcodes', () => {
    for (const rcode of ['SERVFAIL', 'REFUSED', 'FORMERR', 'OTHER'] as const) cache.set(rcode, response({ rcode, ttl: 300, negativeTtl: 300 }));
    expect(cache.stats.size).toBe(0);
  });

  it('holds at most maxEntries, evicting the least recently used', () => {
    const capped = new SharedAnswerCache({ now, maxEntries: 3 });
    for (const key of ['a', 'b', 'c']) capped.set(key, response({ answers: [key], ttl: 60 }));
    capped.get('a'); // a is now the most recently used
    capped.set('d', response({ answers: ['d'], ttl: 60 }));
    expect(capped.stats).toMatchObject({ size: 3, evictions: 1 });
    expect(capped.get('b')).toBeUndefined();
    expect(['a', 'c', 'd'].map((key) => capped.get(key)?.answers[0])).toEqual(['a', 'c', 'd']);
  });

  it('freezes what it shares, so no scan can change the answer another scan reads', () => {
    const answer = response({ answers: ['127.0.0.2'], ttl: 60 });
    cache.set('k', answer);
    expect(() => (cache.get('k')?.answers as string[]).push('x')).toThrow(TypeError);
  });

  it('does not keep a failed fetch: the next question goes to the network again', async () => {
    const failing = () => Promise.reject(new Error('timed out'));
    await expect(cache.resolve('k', failing)).rejects.toThrow('timed out');
    const { fromNetwork } = await cache.resolve('k', () => Promise.resolve(response({ answers: ['x'], ttl: 60 })));
    expect(fromNetwork).toBe(true);
  });
});

describe('isOutsideDomain', () => {
  it('is false for the domain and its subdomains, true for anything else', () => {
    expect(isOutsideDomain('shop.example', 'shop.example')).toBe(false);
    expect(isOutsideDomain('mx1.shop.example', 'shop.example')).toBe(false);
    expect(isOutsideDomain('myshop.example', 'shop.example')).toBe(true);
    expect(isOutsideDomain('aspmx.l.google.com', 'shop.example')).toBe(true);
    expect(isOutsideDomain('example', 'shop.example')).toBe(true);
  });
});

describe('two resolvers sharing the cache, against the fixture DNS server', () => {
  it('exposes the answer TTL, and no SOA-derived negative TTL when the server sends no SOA', async () => {
    const r = resolver(null);
    expect(await r.query('mx.provider.example', 'A')).toMatchObject({ answers: ['192.0.2.2'], ttl: 120, negativeTtl: null });
    expect(await r.query('nothing.example', 'A')).toMatchObject({ rcode: 'NXDOMAIN', answers: [], ttl: 0, negativeTtl: null });
  });

  it('answers the second resolver from the cache within the TTL, and asks again after it', async () => {
    const first = resolver();
    const second = resolver();
    expect((await first.query('2.0.2.192.zen.example', 'A', { shared: true })).answers).toEqual(['127.0.0.2']);
    const hit = await second.query('2.0.2.192.zen.example', 'A', { shared: true });
    expect(hit).toMatchObject({ answers: ['127.0.0.2'], timeMs: 0 });
    expect([first.queriesSent, second.queriesSent, dns.queries]).toEqual([1, 0, 1]);

    clock += 119_999;
    await resolver().query('2.0.2.192.zen.example', 'A', { shared: true });
    expect(dns.queries).toBe(1);
    clock += 1;
    const third = resolver();
    await third.query('2.0.2.192.zen.example', 'A', { shared: true });
    expect([third.queriesSent, dns.queries]).toEqual([1, 2]);
  });

  it('caches NXDOMAIN without SOA for the default 60 s', async () => {
    await resolver().query('9.9.9.9.zen.example', 'A', { shared: true });
    const second = resolver();
    expect(await second.query('9.9.9.9.zen.example', 'A', { shared: true })).toMatchObject({ rcode: 'NXDOMAIN' });
    expect(second.queriesSent).toBe(0);
    clock += 60_000;
    const third = resolver();
    await third.query('9.9.9.9.zen.example', 'A', { shared: true });
    expect(third.queriesSent).toBe(1);
  });

  it('never shares a timeout or a SERVFAIL across resolvers', async () => {
    await expect(resolver().query('1.dead.zen.example', 'A', { shared: true })).rejects.toBeInstanceOf(DnsTimeoutError);
    const retry = resolver();
    await expect(retry.query('1.dead.zen.example', 'A', { shared: true })).rejects.toBeInstanceOf(DnsTimeoutError);
    expect(retry.queriesSent).toBe(1);

    expect((await resolver().query('1.broken.zen.example', 'A', { shared: true })).rcode).toBe('SERVFAIL');
    const again = resolver();
    expect((await again.query('1.broken.zen.example', 'A', { shared: true })).rcode).toBe('SERVFAIL');
    expect(again.queriesSent).toBe(1);
    expect(cache.stats.size).toBe(0);
  });

  it('shares nothing unless the question opts in, or without a cache', async () => {
    await resolver().query('mx.provider.example', 'A');
    const plain = resolver();
    await plain.query('mx.provider.example', 'A');
    expect(plain.queriesSent).toBe(1);
    await resolver(null).query('mx.provider.example', 'A', { shared: true });
    expect(cache.stats.size).toBe(0);
  });

  it('lets concurrent resolvers share one question in flight', async () => {
    const resolvers = Array.from({ length: 5 }, () => resolver());
    const answers = await Promise.all(resolvers.map((r) => r.query('mx.provider.example', 'A', { shared: true })));
    expect(answers.map((a) => a.answers[0])).toEqual(Array(5).fill('192.0.2.2'));
    expect(dns.queries).toBe(1);
    expect(cache.stats).toMatchObject({ misses: 1, joined: 4 });
  });

  it('keys answers by the servers asked: another server set does not see them', async () => {
    await resolver().query('mx.provider.example', 'A', { shared: true });
    const other = createResolver({ servers: [{ host: dns.host, port: dns.port }, { host: '127.0.0.1', port: 9 }], timeoutMs: 300, transport, sharedCache: cache });
    await other.query('mx.provider.example', 'A', { shared: true });
    expect(other.queriesSent).toBe(1);
  });

  it('spares the second domain on the same mail provider its DNSBL and MX-host queries, with the same result', async () => {
    const config = { dnsblIpZones: ['zen.example'], dnsblDomainZones: ['dbl.example'], tlsPort: 443, httpsPort: 1, smtpPort: 1, heloName: 'scanner.sendwell.test', authoritativeDnsPort: 53, timeoutMs: 1_000, outbound: { allowLoopback: true } };
    const ctx = (domain: string): CheckContext => ({ domain, resolver: resolver(), config, dkimSelectors: [] });
    const a = ctx('a.example');
    const b = ctx('b.example');
    const first = await blacklistCheck(a);
    const second = await blacklistCheck(b);
    expect(second.status).toBe(first.status);
    expect(second.details.allIpResults).toEqual(first.details.allIpResults);
    // b still asks its own MX, A, AAAA and the domain list; the provider's host and its DNSBL answers are shared.
    expect(b.resolver.queriesSent).toBeLessThan(a.resolver.queriesSent);
    expect(b.resolver.queriesSent).toBe(4);
  });
});
