import { startDnsServer, type TestDnsServer } from '@sendwell/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createDnsTransport, type DnsTransport } from '../../src/dns/dns-transport.js';
import { createResolver, type ResolverOptions } from '../../src/dns/resolver.js';
import { DnsServerError, DnsTimeoutError, type DnsServer } from '../../src/dns/types.js';

const LONG_SPF = `v=spf1 ${Array.from({ length: 30 }, (_, i) => `ip4:192.0.2.${i}`).join(' ')} -all`;
const BIG_TXT = Array.from({ length: 40 }, (_, i) => `record-${i}-${'x'.repeat(60)}`);

let dns: TestDnsServer;
let transport: DnsTransport;

function serverOf(fixture: TestDnsServer): DnsServer {
  return { host: fixture.host, port: fixture.port };
}

function resolver(options: Partial<ResolverOptions> = {}) {
  return createResolver({ servers: [serverOf(dns)], timeoutMs: 500, transport, ...options });
}

beforeAll(async () => {
  transport = createDnsTransport();
  dns = await startDnsServer({
    records: {
      'example.com': {
        A: ['192.0.2.10', '192.0.2.11'],
        AAAA: ['2001:db8::10'],
        MX: [
          { priority: 10, exchange: 'mail.example.com' },
          { priority: 20, exchange: 'Backup.Example.com.' },
        ],
        TXT: ['v=spf1 include:_spf.example.net -all', 'google-site-verification=abc'],
        NS: ['ns1.example.com', 'ns2.example.com'],
        SOA: { mname: 'ns1.example.com', rname: 'hostmaster.example.com', serial: 2026112101 },
      },
      '_dmarc.example.com': { TXT: ['v=DMARC1; p=reject'] },
      'www.example.com': { CNAME: 'example.com' },
      '10.2.0.192.in-addr.arpa': { PTR: ['mail.example.com'] },
      'long.example': { TXT: [LONG_SPF, ['v=DKIM1; k=rsa; ', 'p=MIIB']] },
      'utf8.example': { TXT: [['caf', '\u00e9 ', '\u{1F4E7}']] },
      'latin1.example': { TXT: [[Buffer.from([0x63, 0x61, 0x66, 0xe9])]] },
      '*.dbl.example': { A: ['127.0.1.2'], TXT: ['listed'] },
      'big.example': { TXT: ['v=spf1 -all'] },
      'huge.example': { TXT: BIG_TXT },
      'slow.example': { A: ['192.0.2.99'] },
      'delayed.example': { A: ['192.0.2.98'] },
      'spoofed.example': { A: ['192.0.2.97'] },
    },
    behaviours: {
      'slow.example': 'timeout',
      'servfail.example': 'servfail',
      'refused.example': 'refused',
      'big.example': 'truncate',
      'delayed.example': { delayMs: 150 },
      'spoofed.example': 'spoof',
    },
  });
});

afterAll(async () => {
  await transport.close();
  await dns.close();
});

beforeEach(() => dns.resetLog());

describe('answers', () => {
  it('returns A, AAAA, MX, TXT, NS, SOA, CNAME and PTR data', async () => {
    const r = resolver();
    expect(await r.lookup('example.com', 'A')).toEqual(['192.0.2.10', '192.0.2.11']);
    expect(await r.lookup('example.com', 'AAAA')).toEqual(['2001:db8::10']);
    expect(await r.lookup('example.com', 'MX')).toEqual([
      { priority: 10, exchange: 'mail.example.com' },
      { priority: 20, exchange: 'backup.example.com' },
    ]);
    expect(await r.lookup('example.com', 'TXT')).toEqual([
      'v=spf1 include:_spf.example.net -all',
      'google-site-verification=abc',
    ]);
    expect(await r.lookup('_dmarc.example.com', 'TXT')).toEqual(['v=DMARC1; p=reject']);
    expect(await r.lookup('example.com', 'NS')).toEqual(['ns1.example.com', 'ns2.example.com']);
    expect(await r.lookup('example.com', 'SOA')).toEqual([
      {
        mname: 'ns1.example.com',
        rname: 'hostmaster.example.com',
        serial: 2026112101,
        refresh: 3600,
        retry: 600,
        expire: 604800,
        minimum: 300,
      },
    ]);
    expect(await r.lookup('www.example.com', 'CNAME')).toEqual(['example.com']);
    expect(await r.lookup('10.2.0.192.in-addr.arpa', 'PTR')).toEqual(['mail.example.com']);
  });

  it('gives the full response: rcode, AA, round-trip time', async () => {
    const response = await resolver().query('example.com', 'A');
    expect(response).toMatchObject({ rcode: 'NOERROR', authoritative: true, truncatedRetriedOverTcp: false });
    expect(response.timeMs).toBeGreaterThan(0);
  });

  it('keeps only the asked type when the server follows a CNAME', async () => {
    expect(await resolver().lookup('www.example.com', 'A')).toEqual(['192.0.2.10', '192.0.2.11']);
  });

  it('lower-cases names and strips the trailing dot before asking', async () => {
    const r = resolver();
    expect(await r.lookup('EXAMPLE.com.', 'A')).toEqual(['192.0.2.10', '192.0.2.11']);
    expect(dns.queryLog[0]).toMatchObject({ name: 'example.com', type: 'A', transport: 'udp', recursionDesired: true });
  });

  it('rejects names DNS cannot carry without sending anything', async () => {
    const r = resolver();
    await expect(r.query(`${'a'.repeat(64)}.example`, 'A')).rejects.toBeInstanceOf(RangeError);
    await expect(r.lookup('a..example', 'TXT')).rejects.toThrow('not a valid DNS name: "a..example"');
    expect(r.queriesSent).toBe(0);
  });

  it('sends EDNS0 with a 1232-byte UDP payload size', async () => {
    await resolver().query('example.com', 'A');
    expect(dns.queryLog[0]?.ednsUdpSize).toBe(1232);
  });

  it('answers wildcard names (DNSBL zones)', async () => {
    const r = resolver();
    expect(await r.lookup('2.0.0.127.dbl.example', 'A')).toEqual(['127.0.1.2']);
    expect(await r.lookup('spam-domain.com.dbl.example', 'TXT')).toEqual(['listed']);
  });
});

describe('NXDOMAIN and NODATA', () => {
  it('tells an unknown name from a known name without the type', async () => {
    const r = resolver();
    const nx = await r.query('nope.example.com', 'A');
    expect(nx).toMatchObject({ rcode: 'NXDOMAIN', answers: [] });
    const nodata = await r.query('_dmarc.example.com', 'A');
    expect(nodata).toMatchObject({ rcode: 'NOERROR', answers: [] });
    expect(await r.lookup('nope.example.com', 'TXT')).toEqual([]);
    expect(await r.lookup('_dmarc.example.com', 'MX')).toEqual([]);
  });

  it('answers NODATA, not NXDOMAIN, for a name that only has names below it', async () => {
    expect(await resolver().query('dbl.example', 'A')).toMatchObject({ rcode: 'NOERROR', answers: [] });
    expect(await resolver().query('in-addr.arpa', 'PTR')).toMatchObject({ rcode: 'NOERROR', answers: [] });
  });
});

describe('per-scan cache', () => {
  it('asks a question once per scan: the second one sends nothing', async () => {
    const r = resolver();
    const first = await r.query('example.com', 'MX');
    const second = await r.query('Example.COM.', 'MX');
    expect(second.answers).toEqual(first.answers);
    expect(second.timeMs).toBe(0);
    expect(dns.queries).toBe(1);
    expect(r.queriesSent).toBe(1);
    await r.lookup('example.com', 'TXT');
    expect(r.queriesSent).toBe(2);
  });

  it('coalesces identical questions in flight', async () => {
    const r = resolver();
    const answers = await Promise.all(Array.from({ length: 20 }, () => r.lookup('delayed.example', 'A')));
    expect(answers.every((a) => a[0] === '192.0.2.98')).toBe(true);
    expect(dns.queries).toBe(1);
    expect(r.queriesSent).toBe(1);
  });

  it('is per resolver (per scan), and off with cache: false', async () => {
    await resolver().lookup('example.com', 'A');
    await resolver().lookup('example.com', 'A');
    expect(dns.queries).toBe(2);
    const uncached = resolver({ cache: false });
    await uncached.lookup('example.com', 'A');
    await uncached.lookup('example.com', 'A');
    expect(uncached.queriesSent).toBe(2);
    expect(dns.queries).toBe(4);
  });

  it('does not cache questions to a given server (the server option)', async () => {
    const r = resolver();
    const server = serverOf(dns);
    await r.query('example.com', 'SOA', { server, recurse: false });
    const again = await r.query('example.com', 'SOA', { server, recurse: false });
    expect(again.timeMs).toBeGreaterThan(0);
    expect(dns.queries).toBe(2);
    expect(r.queriesSent).toBe(2);
    expect(dns.queryLog.map((q) => q.recursionDesired)).toEqual([false, false]);
  });
});

describe('timeouts and retries', () => {
  it('throws DnsTimeoutError within timeout × attempts for a zone that never answers', async () => {
    const r = resolver({ timeoutMs: 200 });
    const started = performance.now();
    const error = await r.lookup('slow.example', 'A').catch((e: unknown) => e);
    const elapsed = performance.now() - started;
    expect(error).toBeInstanceOf(DnsTimeoutError);
    expect(error).toMatchObject({ qname: 'slow.example', qtype: 'A', server: serverOf(dns) });
    expect(elapsed).toBeGreaterThanOrEqual(390);
    expect(elapsed).toBeLessThan(2 * 200 + 300);
    expect(dns.queries).toBe(2); // the first try and one retry
    expect(r.queriesSent).toBe(2);
  });

  it('honours retries: 0', async () => {
    const r = resolver({ timeoutMs: 100, retries: 0 });
    await expect(r.query('slow.example', 'A')).rejects.toBeInstanceOf(DnsTimeoutError);
    expect(dns.queries).toBe(1);
  });

  it('remembers a timeout for the rest of the scan instead of waiting again', async () => {
    const r = resolver({ timeoutMs: 100 });
    await expect(r.query('slow.example', 'TXT')).rejects.toBeInstanceOf(DnsTimeoutError);
    await expect(r.query('slow.example', 'TXT')).rejects.toBeInstanceOf(DnsTimeoutError);
    expect(dns.queries).toBe(2);
  });

  it('retries at the second server when the first does not answer', async () => {
    const second = await startDnsServer({ records: { 'slow.example': { A: ['192.0.2.200'] } } });
    try {
      const r = resolver({ servers: [serverOf(dns), serverOf(second)], timeoutMs: 200 });
      expect(await r.lookup('slow.example', 'A')).toEqual(['192.0.2.200']);
      expect(dns.queries).toBe(1);
      expect(second.queries).toBe(1);
      expect(r.queriesSent).toBe(2);
    } finally {
      await second.close();
    }
  });

  it('asks the second server after SERVFAIL from the first', async () => {
    const second = await startDnsServer({ records: { 'servfail.example': { A: ['192.0.2.201'] } } });
    try {
      const r = resolver({ servers: [serverOf(dns), serverOf(second)] });
      expect(await r.lookup('servfail.example', 'A')).toEqual(['192.0.2.201']);
      expect(r.queriesSent).toBe(2);
    } finally {
      await second.close();
    }
  });

  it('reports a network failure as DnsTimeoutError (nothing listening)', async () => {
    const closed = await startDnsServer();
    const dead = serverOf(closed);
    await closed.close();
    const r = resolver({ servers: [dead], timeoutMs: 200 });
    await expect(r.lookup('example.com', 'A')).rejects.toBeInstanceOf(DnsTimeoutError);
  });
});

describe('server errors', () => {
  it('SERVFAIL and REFUSED are responses from query, DnsServerError from lookup', async () => {
    const r = resolver();
    expect(await r.query('servfail.example', 'A')).toMatchObject({ rcode: 'SERVFAIL', answers: [] });
    expect(await r.query('x.refused.example', 'TXT')).toMatchObject({ rcode: 'REFUSED', answers: [] });
    const servfail = await r.lookup('servfail.example', 'A').catch((e: unknown) => e);
    expect(servfail).toBeInstanceOf(DnsServerError);
    expect(servfail).toMatchObject({ qname: 'servfail.example', qtype: 'A', rcode: 'SERVFAIL' });
    await expect(r.lookup('x.refused.example', 'TXT')).rejects.toMatchObject({ rcode: 'REFUSED' });
  });
});

describe('truncation', () => {
  it('falls back to TCP when the UDP answer is truncated and returns the full answer', async () => {
    const r = resolver();
    const response = await r.query('big.example', 'TXT');
    expect(response).toMatchObject({ rcode: 'NOERROR', answers: ['v=spf1 -all'], truncatedRetriedOverTcp: true });
    expect(dns.queryLog.map((q) => q.transport)).toEqual(['udp', 'tcp']);
    expect(r.queriesSent).toBe(2);
  });

  it('gets an answer larger than the EDNS0 payload size over TCP', async () => {
    const response = await resolver().query('huge.example', 'TXT');
    expect(response.truncatedRetriedOverTcp).toBe(true);
    expect(response.answers).toEqual(BIG_TXT);
  });
});

describe('TXT records', () => {
  it('joins the character-strings of one record without separators', async () => {
    const answers = await resolver().lookup('long.example', 'TXT');
    expect(answers).toEqual([LONG_SPF, 'v=DKIM1; k=rsa; p=MIIB']);
    expect(Buffer.byteLength(LONG_SPF)).toBeGreaterThan(255);
  });

  it('decodes UTF-8, and bytes that are not UTF-8 as latin1', async () => {
    expect(await resolver().lookup('utf8.example', 'TXT')).toEqual(['caf\u00e9 \u{1F4E7}']);
    expect(await resolver().lookup('latin1.example', 'TXT')).toEqual(['caf\u00e9']);
  });
});

describe('spoofing', () => {
  it('ignores responses with a wrong id or another question', async () => {
    const r = resolver();
    expect(await r.lookup('spoofed.example', 'A')).toEqual(['192.0.2.97']);
  });
});

describe('shared transport', () => {
  it('serves many concurrent resolvers through one transport', async () => {
    const scans = Array.from({ length: 50 }, () => resolver());
    const results = await Promise.all(
      scans.flatMap((r, i) => [r.lookup('example.com', 'A'), r.lookup(`${i}.dbl.example`, 'A')]),
    );
    expect(results.filter((a) => a.length > 0)).toHaveLength(100);
    expect(dns.queries).toBe(100);
    expect(transport.inFlight).toBe(0);
  });

  it('fixture records can change between scans', async () => {
    dns.setRecords('changing.example', 'A', ['192.0.2.1']);
    expect(await resolver().lookup('changing.example', 'A')).toEqual(['192.0.2.1']);
    dns.setRecords('changing.example', 'A', undefined);
    expect(await resolver().query('changing.example', 'A')).toMatchObject({ rcode: 'NXDOMAIN' });
  });
});
