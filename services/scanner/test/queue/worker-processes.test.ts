import { sql } from '@sendwell/db';
import { createTestDb, deleteKeys, testRedisUrl, uniquePrefix, type TestDb, type TestDnsServer } from '@sendwell/testing';
import type { Worker } from 'bullmq';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createDeps, type Deps } from '../../src/deps.js';
import { scanJob } from '../../src/scan/scan-job.js';
import { factory } from '../scan/factory.js';
import { fixedChecksForQueueTests } from './fixed-checks.js';
import { envVars, silentLogger, spawnWorker, startQueueTestDns, testEnv, type WorkerProcess } from './harness.js';
import { waitUntil } from './wait.js';

let testDb: TestDb;
let dns: TestDnsServer;
let deps: Deps;
let f: ReturnType<typeof factory>;
const prefix = uniquePrefix('scan-procs');
const workers: Worker[] = [];
const processes: WorkerProcess[] = [];

beforeAll(async () => {
  testDb = await createTestDb();
  dns = await startQueueTestDns();
  deps = createDeps(testEnv({ databaseUrl: testDb.url, redisUrl: testRedisUrl(), prefix, dns }), silentLogger, {
    checks: fixedChecksForQueueTests(),
    collectDefaultMetrics: false,
  });
  f = factory(testDb.db);
});

afterEach(async () => {
  await Promise.all(workers.splice(0).map((w) => w.close()));
  for (const p of processes.splice(0)) {
    if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
    await p.exited;
  }
  await deps.queues.scan.obliterate({ force: true });
});

afterAll(async () => {
  await deps.close();
  await dns.close();
  await deleteKeys(prefix);
  await testDb.close();
});

function spawn(extra: Record<string, string>): WorkerProcess {
  const p = spawnWorker(envVars(deps.env, extra));
  processes.push(p);
  return p;
}

async function queueScans(n: number, plan = 'advanced') {
  const scans: Array<{ scanId: string; domainId: number }> = [];
  for (let i = 0; i < n; i++) {
    const domain = await f.domain({ plan });
    scans.push({ scanId: await f.scan(domain.id, 'scheduled'), domainId: domain.id });
  }
  await deps.queues.scan.addBulk(scans.map((s) => scanJob(s.scanId, s.domainId, 'scheduled')));
  return scans;
}

const scanStatus = async (scanId: string) =>
  (await testDb.db.selectFrom('scans').select('status').where('id', '=', scanId).executeTakeFirstOrThrow()).status;

async function writtenOnce(scans: Array<{ scanId: string; domainId: number }>) {
  const rows = await testDb.db
    .selectFrom('domains')
    .leftJoin('domainChecks', 'domainChecks.domainId', 'domains.id')
    .select(['domains.id', 'domains.scanCount', sql<number>`count(domain_checks.id)::int`.as('checks')])
    .where('domains.id', 'in', scans.map((s) => s.domainId))
    .groupBy('domains.id')
    .execute();
  return rows.every((r) => r.scanCount === 1 && r.checks === 6) && rows.length === scans.length;
}

describe('scanner worker processes', () => {
  it('recovers a scan from a worker killed mid-job, and writes it once', async () => {
    const killed = spawn({ SCANNER_CONCURRENCY: '1', TEST_CHECK_DELAY_MS: '4000', TEST_LOCK_DURATION_MS: '1000', TEST_STALLED_INTERVAL_MS: '500' });
    await killed.waitFor((e) => e.event === 'ready');
    const [scan] = await queueScans(1);
    await killed.waitFor((e) => e.event === 'active' && e.scanId === scan!.scanId);
    await waitUntil(async () => (await scanStatus(scan!.scanId)) === 'running', { what: 'scan running' });
    killed.child.kill('SIGKILL');
    await killed.exited;

    // Another worker's stalled-job check finds the expired lock and takes the job over.
    workers.push(deps.startWorker({ lockDuration: 1000, stalledInterval: 500 }));
    await waitUntil(async () => (await scanStatus(scan!.scanId)) === 'completed', { what: 'recovered scan completed', timeoutMs: 20_000 });
    expect(await writtenOnce([scan!])).toBe(true);
    const job = await deps.queues.scan.getJob(scan!.scanId);
    expect(job?.attemptsStarted).toBeGreaterThanOrEqual(2);
    expect(job?.stalledCounter).toBe(1);
  });

  it('shares one queue between two worker processes: each runs some scans, none runs twice', async () => {
    const a = spawn({ SCANNER_CONCURRENCY: '2', TEST_CHECK_DELAY_MS: '150' });
    const b = spawn({ SCANNER_CONCURRENCY: '2', TEST_CHECK_DELAY_MS: '150' });
    await Promise.all([a.waitFor((e) => e.event === 'ready'), b.waitFor((e) => e.event === 'ready')]);
    const scans = await queueScans(24);
    await waitUntil(async () => a.events.filter((e) => e.event === 'completed').length + b.events.filter((e) => e.event === 'completed').length >= scans.length, {
      what: 'all scans completed',
      timeoutMs: 30_000,
    });

    const ranBy = (p: WorkerProcess) => p.events.filter((e) => e.event === 'active').map((e) => e.scanId!);
    expect(ranBy(a).length).toBeGreaterThan(0);
    expect(ranBy(b).length).toBeGreaterThan(0);
    const all = [...ranBy(a), ...ranBy(b)];
    expect(new Set(all).size).toBe(all.length);
    expect(new Set(all)).toEqual(new Set(scans.map((s) => s.scanId)));
    expect(await writtenOnce(scans)).toBe(true);
  });

  it('finishes the scan in flight on SIGTERM, then exits cleanly', async () => {
    const p = spawn({ SCANNER_CONCURRENCY: '1', TEST_CHECK_DELAY_MS: '1500' });
    await p.waitFor((e) => e.event === 'ready');
    const [scan] = await queueScans(1);
    await p.waitFor((e) => e.event === 'active');
    p.child.kill('SIGTERM');
    expect(await p.exited).toBe(0);

    const order = p.events.map((e) => e.event);
    expect(order.indexOf('completed')).toBeGreaterThan(-1);
    expect(order.indexOf('completed')).toBeLessThan(order.indexOf('closed'));
    expect(await scanStatus(scan!.scanId)).toBe('completed');
    expect(await writtenOnce([scan!])).toBe(true);
    expect((await deps.queues.scan.getJob(scan!.scanId))?.finishedOn).toBeTruthy();
  });
});
