import { JobName, QueueName } from '@sendwell/contracts';
import { createJobWorker, SystemCounter, SystemDistinct } from '@sendwell/server-kit';
import { describe, expect, it } from 'vitest';
import { scanJob } from '../../src/scan/scan-job.js';
import { failScan, scanDomainHandler } from '../../src/workers/scan-domain.handler.js';
import { silentLogger, useQueueTestScanner } from './harness.js';
import { waitUntil } from './wait.js';

/**
 * The administrator's running figures the scanner keeps (server-kit's SystemCounters, in Redis under
 * the scanner's QUEUE_PREFIX): written by the real worker once a scan is written, and by the
 * final-failure hook. This file's prefix is its own, so every figure starts at zero.
 */
const ctx = useQueueTestScanner('scan-counters');

const scanStatus = async (id: string) => (await ctx.testDb.db.selectFrom('scans').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status;
const figures = async () => ({
  completed: await ctx.deps.counters.sumLast24h(SystemCounter.ScansCompleted),
  seconds: await ctx.deps.counters.sumLast24h(SystemCounter.ScanSeconds),
  failed: await ctx.deps.counters.sumLast24h(SystemCounter.ScansFailed),
  domainsToday: await ctx.deps.counters.distinctToday(SystemDistinct.DomainsScanned),
});

describe('system counters of the scanner', () => {
  it('counts each scan the worker completes, its seconds and its domain once a day', async () => {
    const [a, b] = [await ctx.f.domain({ plan: 'advanced' }), await ctx.f.domain({ plan: 'standard' })];
    ctx.workers.push(ctx.deps.startWorker());
    // Two scans of a, one of b, one after the other.
    for (const domain of [a, a, b]) {
      const scanId = await ctx.f.scan(domain.id);
      const job = scanJob(scanId, domain.id, 'manual');
      await ctx.deps.queues.scan.add(job.name, job.data, job.opts);
      await waitUntil(async () => (await scanStatus(scanId)) === 'completed', { what: 'scan completed' });
      // The counters are written right after the row: wait for the job itself to finish.
      await waitUntil(async () => (await ctx.deps.queues.scan.getJobState(scanId)) === 'completed', { what: 'job completed' });
    }
    const counted = await figures();
    expect(counted).toMatchObject({ completed: 3, failed: 0, domainsToday: 2 });
    // The seconds are the scans' own durations, the ones the Prometheus histogram observed.
    const histogram = await ctx.deps.metrics.registry.getSingleMetricAsString('scanner_scan_duration_seconds');
    const observed = Number(/scanner_scan_duration_seconds_sum(?:\{[^}]*\})? (\S+)/.exec(histogram)?.[1]);
    expect(counted.seconds).toBeGreaterThan(0);
    expect(counted.seconds).toBeCloseTo(observed, 6);
  });

  it('counts a scan failed for good once, by the final-failure hook, not each failed attempt', async () => {
    const domain = await ctx.f.domain({ plan: 'standard' });
    const scanId = await ctx.f.scan(domain.id);
    const before = await figures();
    let calls = 0;
    // The worker's own handler and hook (deps.ts), with a scan that always throws.
    ctx.workers.push(
      createJobWorker({
        queue: QueueName.Scan,
        connection: ctx.deps.workerRedis,
        prefix: ctx.prefix,
        concurrency: 1,
        logger: silentLogger,
        onFinalFailure: failScan(ctx.deps.engine.recorder, ctx.deps.counters),
        handlers: {
          ...ctx.deps.handlers,
          [JobName.ScanDomain]: scanDomainHandler({
            db: ctx.deps.db,
            engine: ctx.deps.engine,
            metrics: ctx.deps.metrics,
            counters: ctx.deps.counters,
            scan: async () => {
              calls++;
              throw new Error('resolver gone');
            },
          }),
        },
      }),
    );
    await ctx.deps.queues.scan.add(JobName.ScanDomain, { scanId, domainId: domain.id, trigger: 'manual' }, { jobId: scanId, attempts: 2, backoff: { type: 'fixed', delay: 50 } });
    await waitUntil(async () => (await scanStatus(scanId)) === 'failed', { what: 'scan failed' });
    await waitUntil(async () => (await figures()).failed === before.failed + 1, { what: 'failure counted' });
    await waitUntil(async () => (await ctx.deps.queues.scan.getJobState(scanId)) === 'failed', { what: 'job failed' });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(calls).toBe(2);
    expect(await figures()).toEqual({ ...before, failed: before.failed + 1 });
  });

  it("counts the alerts raised that the engine publishes (the scans' and the daily reputation's), not those resolved", async () => {
    const before = await ctx.deps.counters.sumLast24h(SystemCounter.AlertsRaised);
    await ctx.deps.engine.publishAlertEvents([9_000_001, 9_000_002], [9_000_003], silentLogger);
    await ctx.deps.engine.publishAlertEvents([], [9_000_004], silentLogger);
    expect(await ctx.deps.counters.sumLast24h(SystemCounter.AlertsRaised)).toBe(before + 2);
  });
});
