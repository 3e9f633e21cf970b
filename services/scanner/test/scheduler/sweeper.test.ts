import { JobName } from '@sendwell/contracts';
import { createDb, sql, type Database } from '@sendwell/db';
import { createTestDb, deleteKeys, testRedisUrl, uniquePrefix, type TestDb, type TestDnsServer } from '@sendwell/testing';
import type { Worker } from 'bullmq';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createDeps, type Deps } from '../../src/deps.js';
import { SWEEPER_SCHEDULER_ID } from '../../src/scheduler/scheduler.js';
import { Sweeper } from '../../src/scheduler/sweeper.js';
import { scanJob } from '../../src/scan/scan-job.js';
import { factory } from '../scan/factory.js';
import { fixedChecksForQueueTests } from '../queue/fixed-checks.js';
import { silentLogger, startQueueTestDns, testEnv } from '../queue/harness.js';
import { waitUntil } from '../queue/wait.js';

let testDb: TestDb;
let dns: TestDnsServer;
let deps: Deps;
let f: ReturnType<typeof factory>;
const prefix = uniquePrefix('sweeper');
const workers: Worker[] = [];
const past = (ms = 60_000) => new Date(Date.now() - ms);

beforeAll(async () => {
  testDb = await createTestDb();
  dns = await startQueueTestDns();
  deps = createDeps(testEnv({ databaseUrl: testDb.url, redisUrl: testRedisUrl(), prefix, dns, extra: { SCAN_SWEEP_EVERY_MS: '1000' } }), silentLogger, {
    checks: fixedChecksForQueueTests(),
    collectDefaultMetrics: false,
  });
  f = factory(testDb.db);
});

afterEach(async () => {
  await Promise.all(workers.splice(0).map((w) => w.close()));
  await deps.queues.scan.obliterate({ force: true });
  // Each test starts from no due domains.
  await testDb.db.updateTable('domains').set({ nextScanAt: null }).execute();
});

afterAll(async () => {
  await deps.close();
  await dns.close();
  await deleteKeys(prefix);
  await testDb.close();
});

const scansOf = (domainId: number) => testDb.db.selectFrom('scans').select(['id', 'trigger', 'status']).where('domainId', '=', domainId).execute();

describe('Sweeper', () => {
  it('claims due domains of paid plans only, never deleted or future ones, and unschedules unpaid ones', async () => {
    const due = await f.domain({ plan: 'basic', nextScanAt: past() });
    const future = await f.domain({ plan: 'basic', nextScanAt: new Date(Date.now() + 3_600_000) });
    const deleted = await f.domain({ plan: 'advanced', nextScanAt: past(), deleted: true });
    const downgraded = await f.domain({ plan: 'free', nextScanAt: past() });
    const unscheduled = await f.domain({ plan: 'standard' });

    const result = await deps.sweeper.sweep();
    expect(result).toEqual({ claimed: 2, queued: 1, deduplicated: 0 });
    expect(await scansOf(due.id)).toEqual([{ id: expect.any(String), trigger: 'scheduled', status: 'queued' }]);
    for (const d of [future, deleted, downgraded, unscheduled]) expect(await scansOf(d.id)).toEqual([]);

    const rows = await testDb.db.selectFrom('domains').select(['id', 'nextScanAt']).where('id', 'in', [due.id, downgraded.id]).execute();
    const byId = new Map(rows.map((r) => [r.id, r.nextScanAt]));
    // Leased ahead while the scan is pending; the finished scan sets the plan interval.
    expect(byId.get(due.id)!.getTime()).toBeGreaterThan(Date.now() + 5 * 60_000);
    expect(byId.get(downgraded.id)).toBeNull();

    const [job] = await deps.queues.scan.getJobs(['waiting']);
    expect(job).toMatchObject({ name: JobName.ScanDomain, data: { domainId: due.id, trigger: 'scheduled' } });
    // Nothing due any more: a second sweep claims nothing.
    expect(await deps.sweeper.sweep()).toEqual({ claimed: 0, queued: 0, deduplicated: 0 });
  });

  it('does not queue a domain that already has a scan pending, and drops the extra scan row', async () => {
    const domain = await f.domain({ plan: 'advanced', nextScanAt: past() });
    const manual = await f.scan(domain.id, 'manual');
    const job = scanJob(manual, domain.id, 'manual');
    await deps.queues.scan.add(job.name, job.data, job.opts);

    expect(await deps.sweeper.sweep()).toEqual({ claimed: 1, queued: 0, deduplicated: 1 });
    expect(await scansOf(domain.id)).toEqual([{ id: manual, trigger: 'manual', status: 'queued' }]);
    expect((await deps.queues.scan.getJobCounts('waiting')).waiting).toBe(1);
  });

  it('hands each due domain to exactly one of two concurrent sweepers, in batches', async () => {
    const user = await f.user('advanced');
    const n = 600;
    await testDb.db
      .insertInto('domains')
      .values(Array.from({ length: n }, (_, i) => ({ userId: user, name: `bulk${i}.example`, nextScanAt: past(i * 10) })))
      .execute();

    // Two sweepers as two processes would have them: their own pools, one queue.
    const pools: Database[] = [createDb({ connectionString: testDb.url, max: 2 }), createDb({ connectionString: testDb.url, max: 2 })];
    try {
      const sweepers = pools.map((db) => new Sweeper(db, deps.queues.scan, { batch: 25, leaseMs: 600_000, maxBatches: 100 }, silentLogger));
      const results = await Promise.all([sweepers[0]!.sweep(), sweepers[1]!.sweep(), sweepers[0]!.sweep(), sweepers[1]!.sweep()]);
      expect(results.reduce((sum, r) => sum + r.queued, 0)).toBe(n);
      expect(results.filter((r) => r.queued > 0).length).toBeGreaterThanOrEqual(2);
    } finally {
      await Promise.all(pools.map((p) => p.destroy()));
    }

    const perDomain = await testDb.db
      .selectFrom('scans')
      .innerJoin('domains', 'domains.id', 'scans.domainId')
      .select(['scans.domainId', sql<number>`count(*)::int`.as('n')])
      .where('domains.userId', '=', user)
      .groupBy('scans.domainId')
      .execute();
    expect(perDomain).toHaveLength(n);
    expect(perDomain.every((r) => r.n === 1)).toBe(true);
    expect((await deps.queues.scan.getJobCounts('waiting')).waiting).toBe(n);
  });

  it('marks every claimed scan failed when Redis refuses the jobs, with lanes claiming in parallel, and throws', async () => {
    const user = await f.user('standard');
    const n = 120;
    await testDb.db
      .insertInto('domains')
      .values(Array.from({ length: n }, (_, i) => ({ userId: user, name: `refused${i}.example`, nextScanAt: past(i * 10) })))
      .execute();
    let calls = 0;
    const refusing = {
      addBulk: async () => {
        calls++;
        // Let the other lanes claim meanwhile, as a slow Redis would.
        await new Promise((resolve) => setTimeout(resolve, 20));
        throw new Error('redis refused');
      },
    } as unknown as typeof deps.queues.scan;
    const sweeper = new Sweeper(testDb.db, refusing, { batch: 10, leaseMs: 600_000, lanes: 3 }, silentLogger);

    await expect(sweeper.sweep()).rejects.toThrow('redis refused');
    expect(calls).toBeGreaterThanOrEqual(1);
    const statuses = await testDb.db
      .selectFrom('scans')
      .innerJoin('domains', 'domains.id', 'scans.domainId')
      .select(['scans.status', 'scans.error'])
      .where('domains.userId', '=', user)
      .execute();
    // Each lane stops after its batch: far from all 120 were claimed, and none is left as queued.
    expect(statuses.length).toBeGreaterThan(0);
    expect(statuses.length).toBeLessThan(n);
    expect(statuses.every((row) => row.status === 'failed' && row.error === 'The scan could not be queued; it will be retried.')).toBe(true);
  });

  it('registers one job scheduler however many processes boot, and its sweeps scan due domains on their plan interval', async () => {
    await Promise.all([deps.startScheduler(), deps.startScheduler()]);
    const schedulers = await deps.queues.scan.getJobSchedulers();
    expect(schedulers.map((s) => [s.key, s.name, s.every])).toEqual([[SWEEPER_SCHEDULER_ID, JobName.SweepDueDomains, 1000]]);

    const domain = await f.domain({ plan: 'standard', nextScanAt: past() });
    workers.push(deps.startWorker());
    const done = await waitUntil(
      async () => {
        const rows = await scansOf(domain.id);
        return rows.length === 1 && rows[0]!.status === 'completed' ? rows : null;
      },
      { what: 'scheduled scan completed', timeoutMs: 15_000 },
    );
    expect(done[0]!.trigger).toBe('scheduled');
    const { nextScanAt, scanCount } = await f.counts(domain.id);
    expect(scanCount).toBe(1);
    // Standard: hourly.
    expect(Math.abs(nextScanAt!.getTime() - (Date.now() + 3_600_000))).toBeLessThan(30_000);
    await deps.queues.scan.removeJobScheduler(SWEEPER_SCHEDULER_ID);
  });
});
