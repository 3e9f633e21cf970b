import { createTestCa, issueCert, startDnsServer, startMxServer, type TestDnsServer, type TestMxServer } from '@sendwell/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { daneCheck } from '../../src/checks/dane/dane.check.js';
import { smtpCheck } from '../../src/checks/smtp/smtp.check.js';
import { MxProbeCache } from '../../src/checks/shared/mx-probe/probe-cache.js';
import { checkContext } from './harness.js';

/**
 * SMTP conversations shared between scans (checks/shared/mx-probe/probe-cache.ts), counted at a real STARTTLS
 * server: a provider's MX host serving many domains is talked to once per TTL, the scanned domain's
 * own MX host every time.
 */

let dns: TestDnsServer;
let mx: TestMxServer;
let caPem: string;

beforeAll(async () => {
  const ca = await createTestCa();
  caPem = ca.cert;
  const cert = await issueCert(ca, { hostnames: ['mx1.provider.test', 'mx.own.test'] });
  mx = await startMxServer({ certificate: cert, name: 'mx1.provider.test' });
  const provider = { MX: [{ priority: 10, exchange: 'mx1.provider.test' }] };
  dns = await startDnsServer({
    records: {
      'one.test': provider,
      'two.test': provider,
      'three.test': provider,
      'mx1.provider.test': { A: ['127.0.0.1'] },
      '_25._tcp.mx1.provider.test': { TLSA: [{ usage: 3, selector: 1, matchingType: 1, data: '00'.repeat(32) }] },
      'own.test': { MX: [{ priority: 10, exchange: 'mx.own.test' }] },
      'mx.own.test': { A: ['127.0.0.1'] },
    },
  });
});

afterAll(async () => {
  await Promise.all([dns?.close(), mx?.close()]);
});

const contextFor = (domain: string, mxProbes?: MxProbeCache) =>
  checkContext(domain, dns, { config: { smtpPort: mx.port, tlsExtraCa: caPem, timeoutMs: 4_000, ...(mxProbes ? { mxProbes } : {}) } });

describe('SMTP conversations shared between scans', () => {
  it("talks to a provider's MX host once for several domains, and each domain gets the whole result", async () => {
    const cache = new MxProbeCache();
    const before = mx.connections;
    const results = await Promise.all(['one.test', 'two.test', 'three.test'].map((domain) => smtpCheck(contextFor(domain, cache))));
    expect(mx.connections - before).toBe(1);
    expect(cache.stats).toMatchObject({ hits: 2, misses: 1, size: 1 });
    for (const result of results) {
      expect(result.status).toBe('valid');
      const host = result.details.hosts?.[0];
      expect(host).toMatchObject({ exchange: 'mx1.provider.test', ip: '127.0.0.1', starttls: true, greetingName: 'mx1.provider.test' });
      expect(host?.certificate).toMatchObject({ trusted: true, nameMatches: true });
    }
    // Each scan's result is its own: changing one does not change another's.
    results[0]?.details.hosts?.[0]?.extensions?.push('X-CHANGED');
    expect(results[1]?.details.hosts?.[0]?.extensions).not.toContain('X-CHANGED');
  });

  it("talks to the scanned domain's own MX host on every scan (its owner may just have fixed it)", async () => {
    const cache = new MxProbeCache();
    const before = mx.connections;
    await smtpCheck(contextFor('own.test', cache));
    await smtpCheck(contextFor('own.test', cache));
    expect(mx.connections - before).toBe(2);
    expect(cache.stats.size).toBe(0);
  });

  it('talks again once the kept conversation is older than its TTL', async () => {
    const cache = new MxProbeCache({ ttlMs: 50 });
    const before = mx.connections;
    await smtpCheck(contextFor('one.test', cache));
    await smtpCheck(contextFor('two.test', cache));
    expect(mx.connections - before).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 80));
    await smtpCheck(contextFor('three.test', cache));
    expect(mx.connections - before).toBe(2);
  });

  it("keeps DANE's conversation (which trusts no CA) apart from the SMTP check's", async () => {
    const cache = new MxProbeCache();
    const before = mx.connections;
    const [smtp, dane] = await Promise.all([smtpCheck(contextFor('one.test', cache)), daneCheck(contextFor('one.test', cache))]);
    await daneCheck(contextFor('two.test', cache));
    expect(mx.connections - before).toBe(2);
    expect(smtp.details.hosts?.[0]?.certificate?.trusted).toBe(true);
    // DANE saw the presented chain and matched it against the TLSA record (which does not match).
    expect(dane.details.hosts?.[0]).toMatchObject({ exchange: 'mx1.provider.test', ip: '127.0.0.1', matched: false });
    expect(dane.details.hosts?.[0]?.presentedRecord).toMatch(/^3 1 1 [0-9a-f]{64}$/);
  });

  it('without a cache, every scan has its own conversation', async () => {
    const before = mx.connections;
    await Promise.all([smtpCheck(contextFor('one.test')), smtpCheck(contextFor('two.test'))]);
    expect(mx.connections - before).toBe(2);
  });
});
