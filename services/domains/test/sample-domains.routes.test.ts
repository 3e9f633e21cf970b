import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { coreCheckTypes, JobName, messages, type SampleDomainAnswer } from '@sendwell/contracts';
import { deleteKeys, mailDomainZone, startDnsServer, testRedisUrl, uniquePrefix, type TestDnsServer } from '@sendwell/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newSampleDomainsLimitMessage, SCAN_QUEUE_UNAVAILABLE, sampleScanDedupId } from '../src/quick-check/sample-domain.service.js';
import { startToolsHarness, type ToolsHarness } from './tools-harness.js';

/**
 * The quick check end to end: the route queues a real `scan-sample-domain` job, and a real scanner
 * process (services/scanner/src/main.ts, configured by environment as in production) scans the
 * fixture zones and writes the checks this service then answers. No check row is made up here.
 */

const scannerRoot = fileURLToPath(new URL('../../scanner', import.meta.url));

function startScanner(env: Record<string, string>): { child: ChildProcess; stop(): Promise<void> } {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: scannerRoot,
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  child.on('exit', (code) => {
    if (code && code !== 0) console.error(`scanner exited ${code}: ${stderr}`);
  });
  return {
    child,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

async function waitUntil<T>(probe: () => Promise<T | null | undefined | false>, what: string, timeoutMs = 45_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

let dns: TestDnsServer;
let h: ToolsHarness;
let scanner: ReturnType<typeof startScanner> | undefined;

beforeAll(async () => {
  dns = await startDnsServer({ records: { ...mailDomainZone('quick.test'), ...mailDomainZone('other.test') } });
  h = await startToolsHarness();
});
afterAll(async () => {
  await scanner?.stop();
  await h?.close();
  await dns?.close();
});

const get = (domain: string) => h.app.inject({ method: 'GET', url: `/api/sample-domains/${domain}` });

async function pendingSampleJobs() {
  const jobs = await h.queues.scan.getJobs(['waiting', 'active', 'delayed', 'prioritized']);
  return jobs.filter((job) => job.name === JobName.ScanSampleDomain);
}

describe('GET /api/sample-domains/{domain}', () => {
  it('answers a first request pending with no checks, and five concurrent first requests queue one scan', async () => {
    const answers = await Promise.all(Array.from({ length: 5 }, () => get('quick.test')));
    for (const res of answers) {
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ domain: { name: 'quick.test', status: 'pending', lastScan: null }, checks: null });
    }
    const rows = await h.db.selectFrom('sampleDomains').select(['id', 'name']).where('name', '=', 'quick.test').execute();
    expect(rows).toHaveLength(1);
    const jobs = await pendingSampleJobs();
    expect(jobs).toHaveLength(1);
    expect(jobs[0]!.data).toEqual({ sampleDomainId: rows[0]!.id });
    expect(await h.queues.scan.getDeduplicationJobId(sampleScanDedupId(rows[0]!.id))).toBe(jobs[0]!.id);

    // Asking again while the scan waits queues nothing more.
    await get('QUICK.test');
    expect(await pendingSampleJobs()).toHaveLength(1);
  });

  it('answers the checks a real scanner worker wrote, in the card’s row order', async () => {
    scanner = startScanner({
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      HOST: '127.0.0.1',
      PORT: '0',
      DATABASE_URL: h.testDb.url,
      DATABASE_POOL_MAX: '3',
      REDIS_URL: testRedisUrl(),
      QUEUE_PREFIX: h.prefix,
      DNS_SERVERS: dns.url,
      DNS_TIMEOUT_MS: '500',
      SCAN_TLS_PORT: '1',
      SCAN_HTTPS_PORT: '1',
      SCAN_SMTP_PORT: '1',
      SCAN_AUTHORITATIVE_DNS_PORT: String(dns.port),
      SCAN_TIMEOUT_MS: '1000',
      SCAN_CHECK_DEADLINE_MS: '8000',
      DNSBL_IP_ZONES: 'bl.fixture.test',
      DNSBL_DOMAIN_ZONES: 'dbl.fixture.test',
    });
    const body = await waitUntil(async () => {
      const answer = (await get('quick.test')).json() as SampleDomainAnswer;
      return answer.checks ? answer : null;
    }, 'the scanner to write the quick check');

    expect(body.domain.name).toBe('quick.test');
    expect(body.domain.status).not.toBe('pending');
    expect(body.domain.lastScan).not.toBeNull();
    expect(body.checks!.map((c) => c.type)).toEqual([...coreCheckTypes]);
    const byType = Object.fromEntries(body.checks!.map((c) => [c.type, c]));
    expect(byType.spf).toMatchObject({ status: 'valid' });
    expect(byType.dmarc).toMatchObject({ status: 'valid' });
    // Nothing listens for TLS in this fixture: the real SSL check says so.
    expect(byType.ssl_certificate!.status).not.toBe('valid');

    const row = await h.db.selectFrom('sampleDomains').select(['scanCount']).where('name', '=', 'quick.test').executeTakeFirstOrThrow();
    expect(row.scanCount).toBe(1);
  });

  it('reuses fresh results without queueing a scan', async () => {
    const first = (await get('quick.test')).json() as SampleDomainAnswer;
    expect(first.checks).not.toBeNull();
    expect(await pendingSampleJobs()).toHaveLength(0);
    const row = await h.db.selectFrom('sampleDomains').select(['scanCount']).where('name', '=', 'quick.test').executeTakeFirstOrThrow();
    expect(row.scanCount).toBe(1);
  });

  it('answers results older than 24 hours at once and refreshes them in the background', async () => {
    // Time passing, not a made-up scan: the real scan's rows are kept, only their age changes.
    const dayAgo = new Date(Date.now() - 25 * 3_600_000);
    await h.db.updateTable('sampleDomains').set({ lastScan: dayAgo, updatedAt: dayAgo }).where('name', '=', 'quick.test').execute();

    const stale = (await get('quick.test')).json() as SampleDomainAnswer;
    expect(stale.domain.lastScan).toBe(dayAgo.toISOString());
    expect(stale.checks!.map((c) => c.type)).toEqual([...coreCheckTypes]);

    const refreshed = await waitUntil(async () => {
      const answer = (await get('quick.test')).json() as SampleDomainAnswer;
      return answer.domain.lastScan && Date.parse(answer.domain.lastScan) > Date.now() - 60_000 ? answer : null;
    }, 'the background refresh');
    expect(refreshed.checks).toHaveLength(coreCheckTypes.length);
    const row = await h.db.selectFrom('sampleDomains').select(['scanCount']).where('name', '=', 'quick.test').executeTakeFirstOrThrow();
    expect(row.scanCount).toBe(2);
  });

  it('trims and lower-cases the domain, as the contracts’ schema does', async () => {
    const res = await get('Other.TEST');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ domain: { name: 'other.test' } });
  });

  it.each([
    ['abc', messages.domainMin],
    ['not_a_domain.com', messages.domainInvalid],
    ['john%40example.com', messages.domainInvalid],
    ['192.168.0.1', messages.domainInvalid],
    ['-bad.com', messages.domainInvalid],
    ['example.c', messages.domainInvalid],
  ])('refuses %s with 400 and the contracts’ message', async (domain, message) => {
    const res = await get(domain);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED', message });
  });

  it('needs no login', async () => {
    const res = await h.app.inject({ method: 'GET', url: '/api/sample-domains/other.test', headers: { authorization: 'Bearer not-a-token' } });
    expect(res.statusCode).toBe(200);
  });

  it('answers 503 for a first request when the scan queue cannot be reached, and stale results still', async () => {
    // The producer connection has no offline queue, so a Redis outage makes `add` reject like this.
    const down = await startToolsHarness({
      testDb: h.testDb,
      sampleScanQueue: { add: () => Promise.reject(new Error("Stream isn't writeable and enableOfflineQueue options is false")) },
    });
    try {
      const res = await down.app.inject({ method: 'GET', url: '/api/sample-domains/never-scanned.test' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE', message: SCAN_QUEUE_UNAVAILABLE });
      // Stale results are still answered when their refresh cannot be queued.
      await h.db.updateTable('sampleDomains').set({ lastScan: new Date(Date.now() - 25 * 3_600_000) }).where('name', '=', 'quick.test').execute();
      const stale = await down.app.inject({ method: 'GET', url: '/api/sample-domains/quick.test' });
      expect(stale.statusCode).toBe(200);
      expect((stale.json() as SampleDomainAnswer).checks).toHaveLength(coreCheckTypes.length);
    } finally {
      await down.close();
    }
  });
});

describe('what a quick check may create', () => {
  const sampleRow = (name: string) => h.db.selectFrom('sampleDomains').select('id').where('name', '=', name).executeTakeFirst();

  it('caps new sample domains per minute across every process: 429 with Retry-After, nothing created, known domains still answered', async () => {
    // Two service processes sharing the database and the Redis namespace, as in production.
    const prefix = uniquePrefix('domains-cap');
    const a = await startToolsHarness({ testDb: h.testDb, prefix, sampleDomains: { newPerMinute: 3 } });
    const b = await startToolsHarness({ testDb: h.testDb, prefix, sampleDomains: { newPerMinute: 3 } });
    const ask = (on: ToolsHarness, domain: string) => on.app.inject({ method: 'GET', url: `/api/sample-domains/${domain}` });
    try {
      expect((await ask(a, 'cap-1.test')).statusCode).toBe(200);
      // Looking at a known domain is not counted.
      for (const on of [a, b, b]) expect((await ask(on, 'cap-1.test')).statusCode).toBe(200);
      expect((await ask(b, 'cap-2.test')).statusCode).toBe(200);
      expect((await ask(a, 'cap-3.test')).statusCode).toBe(200);

      const refused = await ask(b, 'cap-4.test');
      expect(refused.statusCode).toBe(429);
      const retryAfter = Number(refused.headers['retry-after']);
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
      expect(refused.json()).toMatchObject({ code: 'RATE_LIMITED', message: newSampleDomainsLimitMessage(retryAfter), retryAfterSeconds: retryAfter });
      expect((await ask(a, 'cap-5.test')).statusCode).toBe(429);
      expect(await sampleRow('cap-4.test')).toBeUndefined();
      expect(await sampleRow('cap-5.test')).toBeUndefined();
      const queued = await a.queues.scan.getJobs(['waiting', 'active', 'delayed', 'prioritized']);
      expect(queued.filter((job) => job.name === JobName.ScanSampleDomain)).toHaveLength(3);

      // Past the cap, domains already known keep working.
      for (const name of ['cap-1.test', 'cap-3.test']) expect((await ask(b, name)).statusCode).toBe(200);
    } finally {
      await Promise.all([a.close(), b.close()]);
      await deleteKeys(prefix);
    }
  });

  it('refuses HEAD (405, Allow: GET) without creating a row or queueing a scan', async () => {
    const before = (await pendingSampleJobs()).length;
    const res = await h.app.inject({ method: 'HEAD', url: '/api/sample-domains/head-only.test' });
    expect(res.statusCode).toBe(405);
    expect(res.headers.allow).toBe('GET');
    expect(await sampleRow('head-only.test')).toBeUndefined();
    expect(await pendingSampleJobs()).toHaveLength(before);
  });
});
