import { checkTypes, JobName, QueueName, refreshSenderRequirementsJobOptions } from '@sendwell/contracts';
import { assertHandlersComplete, createJobWorker } from '@sendwell/server-kit';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { scanJob } from '../../src/scan/scan-job.js';
import { ScanResults, type ScanEngine } from '@sendwell/scan-engine';
import { failScan, scanDomainHandler } from '../../src/workers/scan-domain.handler.js';
import { silentLogger, useQueueTestScanner } from './harness.js';
import { waitUntil } from './wait.js';


const ctx = useQueueTestScanner('scan-queue');

const scanRow = (id: string) => ctx.testDb.db.selectFrom('scans').select(['status', 'error', 'startedAt', 'overallStatus']).where('id', '=', id).executeTakeFirstOrThrow();

describe('scan queue', () => {
  it('refuses to start with a job kind of the scan queue unhandled', () => {
    expect(() => assertHandlersComplete(QueueName.Scan, { [JobName.ScanDomain]: async () => undefined })).toThrow(/scan worker: no handler for scan-sample-domain, sweep-due-domains/);
    expect(() => assertHandlersComplete(QueueName.Scan, ctx.deps.handlers)).not.toThrow();
  });

  it('runs a queued scan through the worker: running, then completed with checks and DNS snapshot', async () => {
    const domain = await ctx.f.domain({ plan: 'advanced' });
    const scanId = await ctx.f.scan(domain.id);
    await ctx.deps.queues.scan.add(JobName.ScanDomain, { scanId, domainId: domain.id, trigger: 'manual' }, scanJob(scanId, domain.id, 'manual').opts);
    ctx.workers.push(ctx.deps.startWorker());
    const done = await waitUntil(async () => ((await scanRow(scanId)).status === 'completed' ? scanRow(scanId) : null), { what: 'scan completed' });
    expect(done.startedAt).toBeInstanceOf(Date);
    expect(done.overallStatus).toBe('healthy');
    const snapshot = await new ScanResults(ctx.testDb.db).snapshotOfScan(scanId);
    // The snapshot came over the wire from the fixture DNS server.
    expect(snapshot).toMatchObject({ a: ['192.0.2.1'], mx: [{ exchange: 'mx.example', priority: 10, ips: ['192.0.2.25'] }], spfRecord: 'v=spf1 -all', failed: [] });
    expect(await ctx.f.counts(domain.id)).toMatchObject({ checks: checkTypes.length, scanCount: 1 });
    expect(await ctx.deps.metrics.registry.getSingleMetricAsString('scanner_scans_completed_total')).toMatch(/status="healthy"[^\n]* 1/);
    // New evidence: the intake judges the domain's sender requirements again.
    const refresh = (await ctx.deps.queues.intake.getJobs(['waiting'])).filter((job) => job.name === JobName.RefreshSenderRequirements && job.data.domainId === domain.id);
    expect(refresh.map((job) => job.opts.deduplication)).toEqual([refreshSenderRequirementsJobOptions(domain.id).deduplication]);
  });

  it('does not queue a domain twice while it has a scan pending, and queues it again once that finished', async () => {
    const domain = await ctx.f.domain({ plan: 'advanced' });
    const [first, second, third] = [await ctx.f.scan(domain.id), await ctx.f.scan(domain.id), await ctx.f.scan(domain.id)];
    const a = scanJob(first, domain.id, 'manual');
    const b = scanJob(second, domain.id, 'manual');
    const jobA = await ctx.deps.queues.scan.add(a.name, a.data, a.opts);
    const jobB = await ctx.deps.queues.scan.add(b.name, b.data, b.opts);
    expect(jobA.id).toBe(first);
    expect(jobB.id).toBe(first);
    expect((await ctx.deps.queues.scan.getJobCounts('waiting')).waiting).toBe(1);

    ctx.workers.push(ctx.deps.startWorker());
    await waitUntil(async () => (await scanRow(first)).status === 'completed', { what: 'first scan' });
    // The finished job is kept for inspection, yet no longer blocks the domain's next scan.
    const c = scanJob(third, domain.id, 'scheduled');
    await waitUntil(async () => (await ctx.deps.queues.scan.getJob(first))?.finishedOn, { what: 'job finished' });
    expect((await ctx.deps.queues.scan.add(c.name, c.data, c.opts)).id).toBe(third);
    await waitUntil(async () => (await scanRow(third)).status === 'completed', { what: 'third scan' });
    expect((await scanRow(second)).status).toBe('queued');
    expect(await ctx.f.counts(domain.id)).toMatchObject({ scanCount: 2, checks: 2 * checkTypes.length });
  });

  it('skips a scan whose row or domain is gone, without failing or retrying the job', async () => {
    const gone = await ctx.f.domain({ plan: 'standard' });
    const goneScan = await ctx.f.scan(gone.id);
    await ctx.testDb.db.updateTable('domains').set({ isDeleted: true, deletedAt: new Date() }).where('id', '=', gone.id).execute();
    const missingScan = '00000000-0000-4000-8000-000000000000';
    await ctx.deps.queues.add(JobName.ScanDomain, { scanId: goneScan, domainId: gone.id, trigger: 'scheduled' }, { jobId: goneScan });
    await ctx.deps.queues.add(JobName.ScanDomain, { scanId: missingScan, domainId: gone.id, trigger: 'scheduled' }, { jobId: missingScan });
    ctx.workers.push(ctx.deps.startWorker());
    await waitUntil(async () => (await ctx.deps.queues.scan.getJobCounts('completed')).completed === 2, { what: 'both jobs completed' });
    expect((await ctx.deps.queues.scan.getJob(goneScan))?.returnvalue).toEqual({ skipped: 'deleted-domain' });
    expect((await ctx.deps.queues.scan.getJob(missingScan))?.returnvalue).toEqual({ skipped: 'missing-scan' });
    expect((await scanRow(goneScan)).status).toBe('failed');
    expect(await ctx.f.counts(gone.id)).toMatchObject({ checks: 0, scanCount: 0 });
    // Nothing new to judge.
    expect((await ctx.deps.queues.intake.getJobs(['waiting'])).filter((job) => job.data.domainId === gone.id)).toEqual([]);
  });

  it('fails an invalid payload at once (no retries) and an unknown job name', async () => {
    await ctx.deps.queues.scan.add(JobName.ScanDomain, { scanId: 'not-a-uuid', domainId: -1 }, { jobId: 'bad-payload', attempts: 3 });
    await ctx.deps.queues.scan.add('from-a-newer-deploy', {}, { jobId: 'unknown-name', attempts: 3 });
    ctx.workers.push(ctx.deps.startWorker());
    await waitUntil(async () => (await ctx.deps.queues.scan.getJobCounts('failed')).failed === 2, { what: 'both failed' });
    const bad = await ctx.deps.queues.scan.getJob('bad-payload');
    expect(bad?.attemptsMade).toBe(1);
    expect(bad?.failedReason).toMatch(/invalid scan-domain payload/);
    expect((await ctx.deps.queues.scan.getJob('unknown-name'))?.failedReason).toMatch(/unknown job from-a-newer-deploy/);
  });

  it('retries a failing scan with backoff and marks it failed once, with a safe message, after the last attempt', async () => {
    const domain = await ctx.f.domain({ plan: 'standard' });
    const scanId = await ctx.f.scan(domain.id);
    let calls = 0;
    // Counts the writes of the failure: the final-failure hook is their one owner.
    let failedWrites = 0;
    const recorder: ScanEngine['recorder'] = Object.assign(Object.create(ctx.deps.engine.recorder) as ScanEngine['recorder'], {
      markFailed: async (id: string, error: string) => {
        failedWrites++;
        await ctx.deps.engine.recorder.markFailed(id, error);
      },
    });
    const failing = scanDomainHandler({
      db: ctx.deps.db,
      engine: Object.assign(Object.create(ctx.deps.engine) as ScanEngine, { recorder }),
      metrics: ctx.deps.metrics,
      scan: async () => {
        calls++;
        throw new Error('connect ECONNREFUSED 10.0.0.7:5432 (internal detail)');
      },
    });
    ctx.workers.push(
      createJobWorker({
        queue: QueueName.Scan,
        onFinalFailure: failScan(recorder),
        connection: ctx.deps.workerRedis,
        prefix: ctx.prefix,
        concurrency: 1,
        logger: silentLogger,
        handlers: { ...ctx.deps.handlers, [JobName.ScanDomain]: failing },
      }),
    );
    await ctx.deps.queues.scan.add(JobName.ScanDomain, { scanId, domainId: domain.id, trigger: 'manual' }, { jobId: scanId, attempts: 3, backoff: { type: 'fixed', delay: 50 } });
    await waitUntil(async () => (await scanRow(scanId)).status === 'failed', { what: 'scan failed' });
    expect(calls).toBe(3);
    const row = await scanRow(scanId);
    expect(row.error).toBe('The scan could not be completed; it will run again later.');
    expect(row.error).not.toMatch(/10\.0\.0\.7/);
    // Once the job itself is failed and its listeners have had time to run, still one write.
    await waitUntil(async () => (await ctx.deps.queues.scan.getJobState(scanId)) === 'failed', { what: 'job failed' });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(failedWrites).toBe(1);
  });

  it('scans a sample domain and replaces its checks, once per job', async () => {
    const sample = await ctx.testDb.db.insertInto('sampleDomains').values({ name: 'sample1.example' }).returning('id').executeTakeFirstOrThrow();
    ctx.workers.push(ctx.deps.startWorker());
    for (const run of [1, 2]) {
      await ctx.deps.queues.add(JobName.ScanSampleDomain, { sampleDomainId: sample.id }, { jobId: `sample-${sample.id}-${run}` });
      await waitUntil(async () => (await ctx.testDb.db.selectFrom('sampleDomains').select('scanCount').where('id', '=', sample.id).executeTakeFirstOrThrow()).scanCount === run, {
        what: `sample scan ${run}`,
      });
    }
    const checks = await ctx.testDb.db.selectFrom('sampleDomainChecks').select(['type']).where('sampleDomainId', '=', sample.id).execute();
    expect(checks.map((c) => c.type).sort()).toEqual(['blacklist', 'dkim', 'dmarc', 'dns_performance', 'spf', 'ssl_certificate']);
    expect((await ctx.testDb.db.selectFrom('sampleDomains').select(['status', 'lastScan']).where('id', '=', sample.id).executeTakeFirstOrThrow()).status).toBe('healthy');
  });

  it('answers health, readiness and Prometheus metrics over HTTP', async () => {
    const app = await buildApp(ctx.deps);
    try {
      expect((await app.inject({ url: '/health' })).json()).toEqual({ status: 'ok', service: 'scanner' });
      const ready = await app.inject({ url: '/health/ready' });
      expect(ready.statusCode).toBe(200);
      expect(ready.json()).toMatchObject({ checks: { postgres: true, redis: true } });
      const metrics = await app.inject({ url: '/metrics' });
      expect(metrics.headers['content-type']).toMatch(/text\/plain/);
      for (const name of ['scanner_scans_completed_total', 'scanner_scans_failed_total', 'scanner_scan_duration_seconds_bucket', 'scanner_dns_queries_per_scan_bucket']) {
        expect(metrics.body).toContain(name);
      }
    } finally {
      await app.close();
    }
  });
});
