import { QueueName } from '@sendwell/contracts';
import { sql } from '@sendwell/db';
import { createRedis } from '@sendwell/server-kit';
import { deleteKeys, startRedisServer, testRedisUrl } from '@sendwell/testing';
import { Queue, UnrecoverableError, Worker } from 'bullmq';
import { describe, expect, it } from 'vitest';
import { scanJob } from '../../src/scan/scan-job.js';
import { ENDED_WITHOUT_RESULT, LOST_TOO_OFTEN, ScanRecovery, UNQUEUEABLE } from '@sendwell/scan-engine';
import { silentLogger, useQueueTestScanner } from '../queue/harness.js';
import { waitUntil } from '../queue/wait.js';

const LEASE_MS = 15_000;

const ctx = useQueueTestScanner('recovery', { SCAN_RECOVERY_LEASE_MS: String(LEASE_MS), SCAN_RECOVERY_TRIES: '3' });

/** Scans of fresh domains, each with its job queued as every producer queues it. */
async function queuedScans(n: number) {
  const scans = [];
  for (let i = 0; i < n; i++) {
    const domain = await ctx.f.domain({ plan: 'advanced' });
    scans.push({ scanId: await ctx.f.scan(domain.id, 'manual'), domainId: domain.id });
  }
  await ctx.deps.queues.scan.addBulk(scans.map((s) => scanJob(s.scanId, s.domainId, 'manual')));
  return scans;
}

/** Moves the scans' last sign of life (created, started, looked at) back past the lease. */
async function age(scanIds: string[], ms = LEASE_MS + 5_000) {
  const at = sql<Date>`now() - make_interval(secs => ${ms / 1000})`;
  await ctx.testDb.db.updateTable('scans').set({ createdAt: at, startedAt: sql`case when started_at is null then null else ${at} end`, recoveryCheckedAt: null }).where('id', 'in', scanIds).execute();
}

const rows = (scanIds: string[]) =>
  ctx.testDb.db.selectFrom('scans').select(['id', 'status', 'error', 'recoveryTries']).where('id', 'in', scanIds).orderBy('id').execute();

/** Redis lost its data, as far as this test's queues go: every key of the test's prefix is deleted. */
const loseRedis = () => deleteKeys(ctx.prefix);

describe('scan recovery', () => {
  it('re-queues scans left queued or running after their jobs vanished, and they complete once', async () => {
    const scans = await queuedScans(4);
    // One was running when its worker and Redis went away together.
    await ctx.testDb.db.updateTable('scans').set({ status: 'running', startedAt: new Date() }).where('id', '=', scans[0]!.scanId).execute();
    const ids = scans.map((s) => s.scanId);
    await loseRedis();

    // Within the lease a scan is left alone (its producer may still be adding the job).
    expect(await ctx.deps.recovery.run()).toEqual({ checked: 0, requeued: 0, failed: 0, superseded: 0 });
    await age(ids);
    expect(await ctx.deps.recovery.run()).toEqual({ checked: 4, requeued: 4, failed: 0, superseded: 0 });
    // Looked at: not again within the lease, and a repeat would be a no-op anyway (job id = scan id).
    expect(await ctx.deps.recovery.run()).toEqual({ checked: 0, requeued: 0, failed: 0, superseded: 0 });
    expect((await ctx.deps.queues.scan.getJobCounts('waiting')).waiting).toBe(4);

    ctx.workers.push(ctx.deps.startWorker());
    await waitUntil(async () => (await rows(ids)).every((r) => r.status === 'completed'), { what: 'recovered scans completed' });
    for (const s of scans) expect((await ctx.f.counts(s.domainId)).scanCount).toBe(1);
    expect((await rows(ids)).map((r) => r.recoveryTries)).toEqual([1, 1, 1, 1]);
  });

  it('leaves a scan whose job still waits in the queue alone, however old', async () => {
    const [scan] = await queuedScans(1);
    await age([scan!.scanId]);
    expect(await ctx.deps.recovery.run()).toEqual({ checked: 1, requeued: 0, failed: 0, superseded: 0 });
    expect((await rows([scan!.scanId]))[0]).toMatchObject({ status: 'queued', recoveryTries: 0 });
    expect((await ctx.deps.queues.scan.getJobCounts('waiting')).waiting).toBe(1);
  });

  it('drops a lost scan when another scan of its domain is pending, and fails one whose job ended without a result', async () => {
    // Its job failed for good while the database could not record it: the row still says queued.
    const [ended] = await queuedScans(1);
    const connection = createRedis(testRedisUrl(), 'worker');
    const failing = new Worker(QueueName.Scan, async () => { throw new UnrecoverableError('database down'); }, { connection, prefix: ctx.prefix });
    await waitUntil(async () => (await ctx.deps.queues.scan.getJobState(ended!.scanId)) === 'failed', { what: 'job failed' });
    await failing.close();
    connection.disconnect();

    const [lost] = await queuedScans(1);
    // Lost: its job is removed, as a Redis losing it would.
    await ctx.deps.queues.scan.remove(lost!.scanId);
    const newer = scanJob(await ctx.f.scan(lost!.domainId, 'manual'), lost!.domainId, 'manual');
    await ctx.deps.queues.scan.add(newer.name, newer.data, newer.opts);

    await age([lost!.scanId, ended!.scanId]);
    expect(await ctx.deps.recovery.run()).toEqual({ checked: 2, requeued: 0, failed: 1, superseded: 1 });
    expect(await rows([lost!.scanId])).toEqual([]);
    expect((await rows([ended!.scanId]))[0]).toMatchObject({ status: 'failed', error: ENDED_WITHOUT_RESULT });
    expect((await ctx.deps.queues.scan.getJobCounts('waiting')).waiting).toBe(1);
  });

  it('fails a scan for good, with the reason, once its job was lost as many times as it may be re-queued', async () => {
    const [scan] = await queuedScans(1);
    for (let lost = 1; lost <= 3; lost++) {
      await loseRedis();
      await age([scan!.scanId]);
      expect(await ctx.deps.recovery.run()).toMatchObject({ requeued: 1, failed: 0 });
    }
    await loseRedis();
    await age([scan!.scanId]);
    expect(await ctx.deps.recovery.run()).toMatchObject({ requeued: 0, failed: 1 });
    expect((await rows([scan!.scanId]))[0]).toMatchObject({ status: 'failed', error: LOST_TOO_OFTEN(3), recoveryTries: 3 });
  });

  it('fails a scan that Redis keeps refusing to queue after N tries, with the reason', async () => {
    // A Redis of its own that refuses writes as a full one with noeviction does (OOM), while reads still work.
    const full = await startRedisServer(['--maxmemory', '1', '--maxmemory-policy', 'noeviction']);
    const connection = createRedis(full.url, 'client');
    const refusingQueue = new Queue(QueueName.Scan, { connection, prefix: ctx.prefix });
    try {
      const recovery = new ScanRecovery(ctx.testDb.db, refusingQueue, { leaseMs: LEASE_MS, maxTries: 3, batch: 100 }, silentLogger);
      const domain = await ctx.f.domain({ plan: 'advanced' });
      const scanId = await ctx.f.scan(domain.id, 'signup');
      for (let tries = 1; tries <= 3; tries++) {
        await age([scanId]);
        expect(await recovery.run()).toMatchObject({ checked: 1, requeued: 0, failed: tries === 3 ? 1 : 0 });
        expect((await rows([scanId]))[0]).toMatchObject({ recoveryTries: tries, status: tries === 3 ? 'failed' : 'queued' });
      }
      expect((await rows([scanId]))[0]!.error).toBe(UNQUEUEABLE(3));
    } finally {
      await refusingQueue.close();
      connection.disconnect();
      await full.close();
    }
  });
});
