import { JobName } from '@sendwell/contracts';
import { createDb, sql, type Database } from '@sendwell/db';
import { deleteKeys } from '@sendwell/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { DAILY_REPUTATION_PATTERN, BLOCKLIST_PROBE_SCHEDULER_ID, DAILY_REPUTATION_SCHEDULER_ID, SWEEPER_SCHEDULER_ID } from '../../src/scheduler/scheduler.js';
import { Sweeper } from '@sendwell/scan-engine';
import { scanJob } from '../../src/scan/scan-job.js';
import { silentLogger, useQueueTestScanner } from '../queue/harness.js';
import { waitUntil } from '../queue/wait.js';

const past = (ms = 60_000) => new Date(Date.now() - ms);

const ctx = useQueueTestScanner('sweeper', { SCAN_SWEEP_EVERY_MS: '1000' });

afterEach(async () => {
  // Each test starts from no due domains.
  await ctx.testDb.db.updateTable('domains').set({ nextScanAt: null }).execute();
});

const scansOf = (domainId: number) => ctx.testDb.db.selectFrom('scans').select(['id', 'trigger', 'status']).where('domainId', '=', domainId).execute();

describe('Sweeper', () => {
  it('claims due domains of paid plans only, never deleted or future ones, and unschedules unpaid ones', async () => {
    const due = await ctx.f.domain({ plan: 'basic', nextScanAt: past() });
    const future = await ctx.f.domain({ plan: 'basic', nextScanAt: new Date(Date.now() + 3_600_000) });
    const deleted = await ctx.f.domain({ plan: 'advanced', nextScanAt: past(), deleted: true });
    const downgraded = await ctx.f.domain({ plan: 'free', nextScanAt: past() });
    const unscheduled = await ctx.f.domain({ plan: 'standard' });

    const result = await ctx.deps.sweeper.sweep();
    expect(result).toEqual({ claimed: 2, queued: 1, deduplicated: 0 });
    expect(await scansOf(due.id)).toEqual([{ id: expect.any(String), trigger: 'scheduled', status: 'queued' }]);
    for (const d of [future, deleted, downgraded, unscheduled]) expect(await scansOf(d.id)).toEqual([]);

    const rows = await ctx.testDb.db.selectFrom('domains').select(['id', 'nextScanAt']).where('id', 'in', [due.id, downgraded.id]).execute();
    const byId = new Map(rows.map((r) => [r.id, r.nextScanAt]));
    // Leased ahead while the scan is pending; the finished scan sets the plan interval.
    expect(byId.get(due.id)!.getTime()).toBeGreaterThan(Date.now() + 5 * 60_000);
    expect(byId.get(downgraded.id)).toBeNull();

    const [job] = await ctx.deps.queues.scan.getJobs(['waiting']);
    expect(job).toMatchObject({ name: JobName.ScanDomain, data: { domainId: due.id, trigger: 'scheduled' } });
    // Nothing due any more: a second sweep claims nothing.
    expect(await ctx.deps.sweeper.sweep()).toEqual({ claimed: 0, queued: 0, deduplicated: 0 });
  });

  it('does not queue a domain that already has a scan pending, and drops the extra scan row', async () => {
    const domain = await ctx.f.domain({ plan: 'advanced', nextScanAt: past() });
    const manual = await ctx.f.scan(domain.id, 'manual');
    const job = scanJob(manual, domain.id, 'manual');
    await ctx.deps.queues.scan.add(job.name, job.data, job.opts);

    expect(await ctx.deps.sweeper.sweep()).toEqual({ claimed: 1, queued: 0, deduplicated: 1 });
    expect(await scansOf(domain.id)).toEqual([{ id: manual, trigger: 'manual', status: 'queued' }]);
    expect((await ctx.deps.queues.scan.getJobCounts('waiting')).waiting).toBe(1);
  });

  it('hands each due domain to exactly one of two concurrent sweepers, in batches', async () => {
    const user = await ctx.f.user('advanced');
    const n = 600;
    await ctx.testDb.db
      .insertInto('domains')
      .values(Array.from({ length: n }, (_, i) => ({ userId: user, name: `bulk${i}.example`, nextScanAt: past(i * 10) })))
      .execute();

    // Two sweepers as two processes would have them: their own pools, one queue.
    const pools: Database[] = [createDb({ connectionString: ctx.testDb.url, max: 2 }), createDb({ connectionString: ctx.testDb.url, max: 2 })];
    try {
      const sweepers = pools.map((db) => new Sweeper(db, ctx.deps.queues.scan, { batch: 25, leaseMs: 600_000, maxBatches: 100 }, silentLogger));
      const results = await Promise.all([sweepers[0]!.sweep(), sweepers[1]!.sweep(), sweepers[0]!.sweep(), sweepers[1]!.sweep()]);
      expect(results.reduce((sum, r) => sum + r.queued, 0)).toBe(n);
      expect(results.filter((r) => r.queued > 0).length).toBeGreaterThanOrEqual(2);
    } finally {
      await Promise.all(pools.map((p) => p.destroy()));
    }

    const perDomain = await ctx.testDb.db
      .selectFrom('scans')
      .innerJoin('domains', 'domains.id', 'scans.domainId')
      .select(['scans.domainId', sql<number>`count(*)::int`.as('n')])
      .where('domains.userId', '=', user)
      .groupBy('scans.domainId')
      .execute();
    expect(perDomain).toHaveLength(n);
    expect(perDomain.every((r) => r.n === 1)).toBe(true);
    expect((await ctx.deps.queues.scan.getJobCounts('waiting')).waiting).toBe(n);
  });

  it('marks every claimed scan failed when Redis refuses the jobs, with lanes claiming in parallel, and throws', async () => {
    const user = await ctx.f.user('standard');
    const n = 120;
    await ctx.testDb.db
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
    } as unknown as typeof ctx.deps.queues.scan;
    const sweeper = new Sweeper(ctx.testDb.db, refusing, { batch: 10, leaseMs: 600_000, lanes: 3 }, silentLogger);

    await expect(sweeper.sweep()).rejects.toThrow('redis refused');
    expect(calls).toBeGreaterThanOrEqual(1);
    const statuses = await ctx.testDb.db
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
    await Promise.all([ctx.deps.startScheduler(), ctx.deps.startScheduler()]);
    const schedulers = await ctx.deps.queues.scan.getJobSchedulers();
    expect(schedulers.map((s) => [s.key, s.name, s.every ?? s.pattern]).sort()).toEqual([
      [BLOCKLIST_PROBE_SCHEDULER_ID, JobName.ProbeBlocklists, 300_000],
      [DAILY_REPUTATION_SCHEDULER_ID, JobName.RecalculateReputation, DAILY_REPUTATION_PATTERN],
      [SWEEPER_SCHEDULER_ID, JobName.SweepDueDomains, 1000],
    ]);

    const domain = await ctx.f.domain({ plan: 'standard', nextScanAt: past() });
    ctx.workers.push(ctx.deps.startWorker());
    const done = await waitUntil(
      async () => {
        const rows = await scansOf(domain.id);
        return rows.length === 1 && rows[0]!.status === 'completed' ? rows : null;
      },
      { what: 'scheduled scan completed', timeoutMs: 15_000 },
    );
    expect(done[0]!.trigger).toBe('scheduled');
    const { nextScanAt, scanCount } = await ctx.f.counts(domain.id);
    expect(scanCount).toBe(1);
    // Standard: hourly.
    expect(Math.abs(nextScanAt!.getTime() - (Date.now() + 3_600_000))).toBeLessThan(30_000);
    await ctx.deps.queues.scan.removeJobScheduler(SWEEPER_SCHEDULER_ID);
  });

  it('registers the sweeper again after Redis lost it and the connection came back', async () => {
    await ctx.deps.startScheduler();
    // A Redis restarted without its data: this test's keys are gone and the connection drops.
    await deleteKeys(ctx.prefix);
    (await ctx.deps.queues.scan.client).disconnect(true);
    await waitUntil(async () => (await ctx.deps.queues.scan.getJobScheduler(SWEEPER_SCHEDULER_ID))?.every === 1000, { what: 'sweeper registered again' });
    await ctx.deps.queues.scan.removeJobScheduler(SWEEPER_SCHEDULER_ID);
  });
});
