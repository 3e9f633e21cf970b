import { startDnsServer, type TestDnsServer } from '@sendwell/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDnsTransport, type DnsTransport } from '../../src/dns/dns-transport.js';
import { createResolver } from '../../src/dns/resolver.js';
import { SharedAnswerCache } from '../../src/dns/shared-cache.js';

/** TLSA answers (RFC 6698 §2.1) through the resolver, from the fixture DNS server. */

const DIGEST = 'ab'.repeat(32);
const SPKI = Buffer.from('3059301306072a8648ce3d020106082a8648ce3d03010703420004' + '11'.repeat(64), 'hex');

let dns: TestDnsServer;
let transport: DnsTransport;

beforeAll(async () => {
  transport = createDnsTransport();
  dns = await startDnsServer({
    records: {
      '_25._tcp.mx.example.com': {
        TLSA: [
          { usage: 3, selector: 1, matchingType: 1, data: DIGEST.toUpperCase() },
          { usage: 2, selector: 0, matchingType: 2, data: Buffer.alloc(64, 0xcd) },
          { usage: 3, selector: 1, matchingType: 0, data: SPKI },
        ],
        TXT: ['not a TLSA record'],
      },
      // Malformed on purpose: passed through as sent, judged by the DANE check.
      '_25._tcp.odd.example.com': { TLSA: [{ usage: 255, selector: 7, matchingType: 9, data: '' }] },
      'mx.example.com': { A: ['192.0.2.25'] },
      '_25._tcp.alias.example.com': { CNAME: '_25._tcp.mx.example.com' },
    },
  });
});

afterAll(async () => {
  await transport.close();
  await dns.close();
});

const resolver = (sharedCache?: SharedAnswerCache) => createResolver({ servers: [{ host: dns.host, port: dns.port }], timeoutMs: 500, transport, ...(sharedCache ? { sharedCache } : {}) });

describe('TLSA answers', () => {
  it('gives usage, selector, matching type and the association data as lower-case hex', async () => {
    expect(await resolver().lookup('_25._tcp.mx.example.com', 'TLSA')).toEqual([
      { usage: 3, selector: 1, matchingType: 1, data: DIGEST },
      { usage: 2, selector: 0, matchingType: 2, data: 'cd'.repeat(64) },
      { usage: 3, selector: 1, matchingType: 0, data: SPKI.toString('hex') },
    ]);
    expect(dns.queryLog.at(-1)).toMatchObject({ name: '_25._tcp.mx.example.com', type: 'TLSA' });
  });

  it('passes undefined parameters and empty data through unjudged', async () => {
    expect(await resolver().lookup('_25._tcp.odd.example.com', 'TLSA')).toEqual([{ usage: 255, selector: 7, matchingType: 9, data: '' }]);
  });

  it('keeps only TLSA records: other types at the name and CNAMEs of the chain are left out', async () => {
    const r = resolver();
    expect(await r.lookup('_25._tcp.alias.example.com', 'TLSA')).toHaveLength(3);
    expect(await r.lookup('_25._tcp.mx.example.com', 'TXT')).toEqual(['not a TLSA record']);
  });

  it('answers NODATA and NXDOMAIN with no records', async () => {
    const r = resolver();
    const nodata = await r.query('mx.example.com', 'TLSA');
    expect(nodata.rcode).toBe('NOERROR');
    expect(nodata.answers).toEqual([]);
    const nxdomain = await r.query('_25._tcp.nowhere.example.com', 'TLSA');
    expect(nxdomain.rcode).toBe('NXDOMAIN');
    expect(await r.lookup('_25._tcp.nowhere.example.com', 'TLSA')).toEqual([]);
  });

  it('goes through the shared cache when asked with shared', async () => {
    const cache = new SharedAnswerCache();
    expect(await resolver(cache).lookup('_25._tcp.mx.example.com', 'TLSA', { shared: true })).toHaveLength(3);
    const before = dns.queries;
    expect(await resolver(cache).lookup('_25._tcp.mx.example.com', 'TLSA', { shared: true })).toHaveLength(3);
    expect(dns.queries).toBe(before);
    expect(cache.stats.hits).toBe(1);
  });
});
