import dgram from 'node:dgram';
import { checkDetailsByType } from '@sendwell/contracts';
import { startDnsServer, type DnsFixtureRecords, type TestDnsServer } from '@sendwell/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dnsPerformanceCheck } from '../../src/checks/dns-performance/dns-performance.check.js';
import { EXCELLENT_MAX_MS, FAIR_MAX_MS } from '../../src/checks/dns-performance/thresholds.js';
import type { CheckResult } from '../../src/checks/types.js';
import { checkContext } from './harness.js';

/**
 * The DNS performance check against real fixture DNS servers standing in for the authoritative
 * servers. Every NS name resolves to a loopback address and `authoritativeDnsPort` is the fixture's
 * port. A second fixture (another SOA serial) is reached as 127.0.0.2 on the same port through a
 * plain UDP relay, because the fixture binds 127.0.0.1 only.
 */

let dns: TestDnsServer;
let secondary: TestDnsServer;
let relay: dgram.Socket;

const soa = (serial: number): DnsFixtureRecords['SOA'] => ({ mname: 'ns1.good.test', rname: 'hostmaster.good.test', serial });

function zone(ns: string[], serial = 2026112101): DnsFixtureRecords {
  return { NS: ns, SOA: soa(serial), A: ['192.0.2.80'], MX: [{ priority: 10, exchange: 'mx.good.test' }] };
}

/** Relays UDP DNS from 127.0.0.2:port to a fixture server, answering from the relay's address. */
async function startRelay(port: number, target: TestDnsServer): Promise<dgram.Socket> {
  const socket = dgram.createSocket('udp4');
  socket.on('message', (message, client) => {
    const upstream = dgram.createSocket('udp4');
    upstream.on('message', (answer) => {
      socket.send(answer, client.port, client.address);
      upstream.close();
    });
    upstream.send(message, target.port, target.host);
    setTimeout(() => {
      try {
        upstream.close();
      } catch {
        // already closed after the answer
      }
    }, 2_000).unref();
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('error', reject);
    socket.bind(port, '127.0.0.2', () => resolve());
  });
  return socket;
}

beforeAll(async () => {
  dns = await startDnsServer({
    records: {
      'ns1.good.test': { A: ['127.0.0.1'] },
      'ns2.good.test': { A: ['127.0.0.1'] },
      'ns-other.good.test': { A: ['127.0.0.2'] },
      // Nothing listens on 127.0.0.3: the question gets no answer.
      'ns-dead.good.test': { A: ['127.0.0.3'] },
      'good.test': zone(['ns1.good.test', 'ns2.good.test']),
      'single.test': zone(['ns1.good.test']),
      'slow.test': zone(['ns1.good.test', 'ns2.good.test']),
      'veryslow.test': zone(['ns1.good.test', 'ns2.good.test']),
      'unreach.test': zone(['ns1.good.test', 'ns-dead.good.test']),
      'alldead.test': zone(['ns-dead.good.test']),
      'mismatch.test': zone(['ns1.good.test', 'ns-other.good.test'], 2026112101),
      // NS records but no SOA: the server answers without the zone's data (lame).
      'lame.test': { NS: ['ns1.good.test', 'ns2.good.test'] },
      'partlame.test': zone(['ns1.good.test', 'ns-other.good.test']),
      'nons.test': { A: ['192.0.2.1'] },
      'ns-private.good.test': { A: ['10.0.0.53'], AAAA: ['fd00::53'] },
      'privns.test': zone(['ns-private.good.test', 'ns1.good.test', 'ns.home.arpa']),
      'mixedns.test': zone(['ns1.good.test', 'ns-private.good.test']),
    },
    behaviours: { 'slow.test': { delayMs: 150 }, 'veryslow.test': { delayMs: 400 }, 'dnsdown.test': 'timeout' },
  });
  secondary = await startDnsServer({
    records: {
      'mismatch.test': zone(['ns1.good.test', 'ns-other.good.test'], 2026112001),
      // The secondary refuses partlame.test: it does not serve that zone.
    },
    behaviours: { 'partlame.test': 'refused' },
  });
  relay = await startRelay(dns.port, secondary);
});

afterAll(async () => {
  await new Promise<void>((resolve) => relay.close(() => resolve()));
  await Promise.all([dns.close(), secondary.close()]);
});

async function scan(domain: string, timeoutMs = 300, allowLoopback = true): Promise<CheckResult> {
  const result = await dnsPerformanceCheck(checkContext(domain, dns, { dnsTimeoutMs: timeoutMs, config: { authoritativeDnsPort: dns.port, outbound: { allowLoopback } } }));
  expect(() => checkDetailsByType.dns_performance.parse(result.details)).not.toThrow();
  return result;
}

type Ns = { name: string; ips: string[]; responseTimeMs: number | null; authoritative: boolean; serial: number | null; error: string | null };
const nameservers = (result: CheckResult) => result.details['nameservers'] as Ns[];
const codes = (result: CheckResult) => result.details.findings.map((f) => f.code);

describe('dnsPerformanceCheck', () => {
  it('is success (Excellent) when every server answers fast and authoritatively with one serial', async () => {
    dns.resetLog();
    const result = await scan('good.test');
    expect(result.status).toBe('success');
    expect(result.message).toBe(`Excellent: 2 name servers answered authoritatively, slowest in ${String(result.details['responseTimeMs'])} ms.`);
    expect(nameservers(result)).toEqual([
      expect.objectContaining({ name: 'ns1.good.test', ips: ['127.0.0.1'], authoritative: true, serial: 2026112101, error: null }),
      expect.objectContaining({ name: 'ns2.good.test', ips: ['127.0.0.1'], authoritative: true, serial: 2026112101, error: null }),
    ]);
    expect(result.details['responseTimeMs']).toBeLessThan(EXCELLENT_MAX_MS);
    expect(typeof result.details['averageResponseTimeMs']).toBe('number');
    expect(result.details['soaSerials']).toEqual({ 'ns1.good.test': 2026112101, 'ns2.good.test': 2026112101 });
    // Both on 127.0.0.0/24: diversity advice only.
    expect(codes(result)).toEqual(['DNS_NS_SAME_SUBNET']);
    expect(result.details.findings[0]).toMatchObject({ severity: 'info', rfc: 'RFC 2182 §3.1' });
    expect(result.details['aRecords']).toEqual(['192.0.2.80']);
    expect(result.details['mxRecords']).toEqual([{ exchange: 'mx.good.test', priority: 10 }]);
    // The SOA questions went to the server directly, without recursion.
    const direct = dns.queryLog.filter((q) => q.type === 'SOA');
    expect(direct).toHaveLength(2);
    expect(direct.every((q) => !q.recursionDesired)).toBe(true);
  });

  it('never queries a name server on a private address or with a special-use name, and reports it', async () => {
    dns.resetLog();
    const result = await scan('privns.test', 300, false);
    expect(result.status).toBe('error');
    expect(result.details.findings.filter((f) => f.code === 'DNS_NS_PRIVATE_ADDRESS')).toEqual([
      expect.objectContaining({ severity: 'warning', nameserver: 'ns-private.good.test', message: 'Name server ns-private.good.test points at private addresses (private network; unique local), which the scanner does not query.' }),
      expect.objectContaining({ nameserver: 'ns.home.arpa', message: 'Name server ns.home.arpa points at a private address (special-use name .home.arpa), which the scanner does not query.' }),
      expect.objectContaining({ nameserver: 'ns1.good.test', message: 'Name server ns1.good.test points at a private address (loopback), which the scanner does not query.' }),
    ]);
    expect(result.message).toBe(result.details.findings.find((f) => f.code === 'DNS_NS_PRIVATE_ADDRESS')?.message);
    // Not one question went to a name server directly; the special-use name was not even looked up.
    expect(dns.queryLog.filter((q) => q.type === 'SOA')).toEqual([]);
    expect(dns.queryLog.filter((q) => q.name.endsWith('home.arpa'))).toEqual([]);
  });

  it('measures the public name servers and reports the private one', async () => {
    const result = await scan('mixedns.test');
    expect(result.status).toBe('warning');
    expect(codes(result)).toContain('DNS_NS_PRIVATE_ADDRESS');
    expect(codes(result)).not.toContain('DNS_NS_UNREACHABLE');
    expect(nameservers(result).find((ns) => ns.name === 'ns1.good.test')).toMatchObject({ authoritative: true });
  });

  it('grades slow answers Fair, then Poor, by the thresholds', async () => {
    const slow = await scan('slow.test');
    expect(slow.status).toBe('warning');
    expect(slow.details['responseTimeMs']).toBeGreaterThan(EXCELLENT_MAX_MS);
    expect(slow.details['responseTimeMs']).toBeLessThanOrEqual(FAIR_MAX_MS);
    expect(slow.details.findings.find((f) => f.code === 'DNS_SLOW_RESPONSE')).toMatchObject({ severity: 'warning' });
    expect(slow.message).toMatch(/^Fair: The slowest name server took \d+ ms to answer/);

    const verySlow = await scan('veryslow.test', 1_000);
    expect(verySlow.status).toBe('error');
    expect(verySlow.details['responseTimeMs']).toBeGreaterThan(FAIR_MAX_MS);
    expect(verySlow.message).toMatch(/^Poor: /);
  });

  it('warns about a single name server', async () => {
    const result = await scan('single.test');
    expect(result.status).toBe('warning');
    expect(codes(result)).toEqual(['DNS_TOO_FEW_NS']);
    expect(result.details.findings[0]).toMatchObject({ rfc: 'RFC 1034 §4.1; RFC 2182 §5' });
  });

  it('warns about an unreachable name server, and is unknown when none answers', async () => {
    const result = await scan('unreach.test');
    expect(result.status).toBe('warning');
    expect(codes(result)).toContain('DNS_NS_UNREACHABLE');
    expect(nameservers(result).find((ns) => ns.name === 'ns-dead.good.test')).toMatchObject({
      ips: ['127.0.0.3'],
      responseTimeMs: null,
      authoritative: false,
    });

    const dead = await scan('alldead.test');
    expect(dead.status).toBe('unknown');
    expect(codes(dead)).toEqual(['DNS_TOO_FEW_NS', 'DNS_NS_UNREACHABLE']);
  });

  it('reports SOA serials that differ between servers', async () => {
    const result = await scan('mismatch.test');
    expect(result.details['soaSerials']).toEqual({ 'ns-other.good.test': 2026112001, 'ns1.good.test': 2026112101 });
    expect(result.status).toBe('warning');
    // 127.0.0.1 and 127.0.0.2 share a /24 as well.
    expect(codes(result)).toEqual(['DNS_SOA_SERIAL_MISMATCH', 'DNS_NS_SAME_SUBNET']);
    expect(result.details.findings[0]?.message).toContain('ns1.good.test: 2026112101');
  });

  it('reports lame servers: an error when none is authoritative, a warning when one is', async () => {
    const lame = await scan('lame.test');
    expect(lame.status).toBe('error');
    expect(lame.details.findings.filter((f) => f.code === 'DNS_LAME_SERVER').map((f) => f.severity)).toEqual(['error', 'error']);

    const partial = await scan('partlame.test');
    expect(partial.status).toBe('warning');
    const finding = partial.details.findings.find((f) => f.code === 'DNS_LAME_SERVER');
    expect(finding).toMatchObject({ nameserver: 'ns-other.good.test', severity: 'warning', rfc: 'RFC 1912 §2.8' });
    expect(finding?.message).toBe('Name server ns-other.good.test is lame for partlame.test: it answered REFUSED.');
  });

  it('is missing without NS records and unknown when the NS lookup times out', async () => {
    const none = await scan('nons.test');
    expect(none.status).toBe('missing');
    expect(codes(none)).toEqual(['DNS_NO_NS']);

    const down = await scan('dnsdown.test');
    expect(down.status).toBe('unknown');
    expect(down.message).toBe('The name servers of the domain could not be looked up.');
  });
});
