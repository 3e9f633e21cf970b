import { checkTypes } from '@sendwell/contracts';
import { sql } from '@sendwell/db';
import { afterEach, describe, expect, it } from 'vitest';
import { scanJob } from '../../src/scan/scan-job.js';
import { SCAN_INTERRUPTED_TOO_OFTEN } from '../../src/workers/scan-domain.handler.js';
import { envVars, spawnWorker, useQueueTestScanner, type WorkerProcess } from './harness.js';
import { waitUntil } from './wait.js';

const processes: WorkerProcess[] = [];

const ctx = useQueueTestScanner('scan-procs');

afterEach(async () => {
  for (const p of processes.splice(0)) {
    if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
    await p.exited;
  }
});

function spawn(extra: Record<string, string>): WorkerProcess {
  const p = spawnWorker(envVars(ctx.deps.env, extra));
  processes.push(p);
  return p;
}

async function queueScans(n: number, plan = 'advanced') {
  const scans: Array<{ scanId: string; domainId: number }> = [];
  for (let i = 0; i < n; i++) {
    const domain = await ctx.f.domain({ plan });
    scans.push({ scanId: await ctx.f.scan(domain.id, 'scheduled'), domainId: domain.id });
  }
  await ctx.deps.queues.scan.addBulk(scans.map((s) => scanJob(s.scanId, s.domainId, 'scheduled')));
  return scans;
}

const scanStatus = async (scanId: string) =>
  (await ctx.testDb.db.selectFrom('scans').select('status').where('id', '=', scanId).executeTakeFirstOrThrow()).status;

async function writtenOnce(scans: Array<{ scanId: string; domainId: number }>) {
  const rows = await ctx.testDb.db
    .selectFrom('domains')
    .leftJoin('scans', 'scans.domainId', 'domains.id')
    .select(['domains.id', 'domains.scanCount', sql<number>`coalesce(sum(cardinality(scans.check_result_ids)), 0)::int`.as('checks')])
    .where('domains.id', 'in', scans.map((s) => s.domainId))
    .groupBy('domains.id')
    .execute();
  return rows.every((r) => r.scanCount === 1 && r.checks === checkTypes.length) && rows.length === scans.length;
}

describe('scanner worker processes', () => {
  // The crash tests kill a worker mid-scan: its scan must outlast anything the test waits for meanwhile
  // (a worker spawned under load took over 10 s to start on CI, and a scan that had finished by the kill
  // was no crash at all), so the slow checks take 5 minutes and the check deadline lets them.
  const crashTimings = { SCANNER_CONCURRENCY: '1', SCAN_CHECK_DEADLINE_MS: '600000' };
  // Shorter lock timings than production's so the take-overs fit a test, yet a lock long enough that a
  // worker starved by a loaded CI machine is not taken for dead (a false stall would spend a try);
  // SCAN_MAX_STALLED_COUNT is the production default (2).
  const lockTimings = { SCAN_LOCK_DURATION_MS: '10000', SCAN_STALLED_INTERVAL_MS: '2000' };
  const neverFinishing = { ...crashTimings, ...lockTimings, TEST_CHECK_DELAY_MS: '300000' };

  /** The scan's row, its job and every worker's events: what a timed-out wait reports. */
  const stateOf = (scanId: string, workers: WorkerProcess[]) => async () => {
    const row = await ctx.testDb.db.selectFrom('scans').select(['status', 'error']).where('id', '=', scanId).executeTakeFirst();
    const job = await ctx.deps.queues.scan.getJob(scanId);
    const state = await ctx.deps.queues.scan.getJobState(scanId);
    const events = workers.map((w) => `${w.child.pid}: ${w.events.map((e) => e.event).join(',')}`).join(' | ');
    return `row ${JSON.stringify(row)}, job ${state} stalled ${job?.stalledCounter} started ${job?.attemptsStarted}, workers ${events}`;
  };
  const completedBy = (p: WorkerProcess, scanId: string) => p.events.some((e) => e.event === 'completed' && e.scanId === scanId);

  it('takes a scan over from a worker killed mid-scan within 30 s, with the production lock settings, and writes it once', async () => {
    // Far longer than the test waits for the survivor to start, so it is surely mid-scan when killed.
    const killed = spawn({ ...crashTimings, TEST_CHECK_DELAY_MS: '300000' });
    await killed.waitFor((e) => e.event === 'ready');
    const [scan] = await queueScans(1);
    await killed.waitFor((e) => e.event === 'active' && e.scanId === scan!.scanId);
    await waitUntil(async () => (await scanStatus(scan!.scanId)) === 'running', { what: 'scan running' });
    // Another worker is up, its own scans aside, when the first dies.
    const survivor = spawn({ SCANNER_CONCURRENCY: '1', TEST_CHECK_DELAY_MS: '500' });
    await survivor.waitFor((e) => e.event === 'ready');
    const killedAt = Date.now();
    killed.child.kill('SIGKILL');
    await killed.exited;

    // The survivor's stalled-job check finds the expired lock (at most lock + interval, 12 + 5 s) and
    // starts the scan again: the takeover is what the lock settings promise. The re-run itself is timed
    // by the machine's load (CI runs every suite at once), so it gets its own, looser wait.
    await survivor.waitFor((e) => e.event === 'active' && e.scanId === scan!.scanId, 30_000);
    expect(Date.now() - killedAt).toBeLessThan(30_000);
    await survivor.waitFor((e) => e.event === 'completed' && e.scanId === scan!.scanId, 45_000);
    expect(await scanStatus(scan!.scanId)).toBe('completed');
    expect(await writtenOnce([scan!])).toBe(true);
    const job = await ctx.deps.queues.scan.getJob(scan!.scanId);
    expect(job?.attemptsStarted).toBe(2);
    expect(job?.stalledCounter).toBe(1);
  }, 90_000);

  it('runs a scan again after a second crash during its re-run, and completes it', async () => {
    const pair = [spawn(neverFinishing), spawn(neverFinishing)];
    await Promise.all(pair.map((p) => p.waitFor((e) => e.event === 'ready')));
    const [scan] = await queueScans(1);
    const runs = (p: WorkerProcess) => p.events.some((e) => e.event === 'active' && e.scanId === scan!.scanId);
    const first = await waitUntil(async () => pair.find(runs), { what: 'a worker running the scan' });
    const second = pair.find((p) => p !== first)!;
    first.child.kill('SIGKILL');
    await second.waitFor((e) => e.event === 'active' && e.scanId === scan!.scanId);
    // The last worker, fast, starts only once the second runs the scan: started earlier, it could
    // take the first re-run itself and leave the second idle (seen on a loaded CI machine).
    const last = spawn({ ...crashTimings, ...lockTimings, TEST_CHECK_DELAY_MS: '200' });
    await last.waitFor((e) => e.event === 'ready');
    expect(completedBy(second, scan!.scanId)).toBe(false);
    second.child.kill('SIGKILL');

    await last.waitFor((e) => e.event === 'completed' && e.scanId === scan!.scanId, 90_000);
    const row = await ctx.testDb.db.selectFrom('scans').select(['status', 'error']).where('id', '=', scan!.scanId).executeTakeFirstOrThrow();
    expect(row).toEqual({ status: 'completed', error: null });
    expect(await writtenOnce([scan!])).toBe(true);
    expect((await ctx.deps.queues.scan.getJob(scan!.scanId))?.stalledCounter).toBe(2);
  }, 300_000);

  it('fails the scan for good, with a safe reason, only at a third crash (one more than SCAN_MAX_STALLED_COUNT)', async () => {
    const all: WorkerProcess[] = [spawn(neverFinishing), spawn(neverFinishing)];
    const alive = [...all];
    await Promise.all(alive.map((p) => p.waitFor((e) => e.event === 'ready')));
    const [scan] = await queueScans(1);
    const explain = stateOf(scan!.scanId, all);
    const runs = (p: WorkerProcess) => p.events.some((e) => e.event === 'active' && e.scanId === scan!.scanId);
    for (let crash = 1; crash <= 3; crash++) {
      // Generous waits: beside the browser tests on two cores a re-run took over 45 s to start once, and
      // over 90 s once with the bench smoke beside it too.
      const runner = await waitUntil(async () => alive.find(runs), { what: `a worker running the scan before crash ${crash}`, timeoutMs: 150_000, explain });
      // Until the last crash, the scan row never reads as failed.
      expect(await scanStatus(scan!.scanId)).not.toBe('failed');
      await waitUntil(async () => (await scanStatus(scan!.scanId)) === 'running', { what: 'scan running', explain });
      // Someone idle to take the scan (or its failure) over.
      const next = spawn(neverFinishing);
      all.push(next);
      await next.waitFor((e) => e.event === 'ready', 90_000);
      alive.splice(alive.indexOf(runner), 1);
      alive.push(next);
      // Still mid-scan: the kill is a crash, not the end of a finished scan.
      expect(completedBy(runner, scan!.scanId)).toBe(false);
      runner.child.kill('SIGKILL');
      await runner.exited;
    }
    await waitUntil(async () => (await scanStatus(scan!.scanId)) === 'failed', { what: 'scan failed for good', timeoutMs: 150_000, explain });
    const row = await ctx.testDb.db.selectFrom('scans').select('error').where('id', '=', scan!.scanId).executeTakeFirstOrThrow();
    expect(row.error).toBe(SCAN_INTERRUPTED_TOO_OFTEN);
    expect(await ctx.deps.queues.scan.getJobState(scan!.scanId)).toBe('failed');
  }, 600_000);

  it('does not take a scan from a busy but alive worker whose event loop is blocked for 4 s', async () => {
    // 4 s blocked, twice: over 3 times the worst stall measured at full concurrency on loaded cores
    // (1.1 s), and 2 s inside the 6 s that a 12 s lock renewed every 6 s tolerates: 5 s left one second
    // of margin, too little while CI runs every suite at once on two cores.
    const busy = spawn({ SCANNER_CONCURRENCY: '1', TEST_CHECK_DELAY_MS: '1000', TEST_CHECK_BLOCK_MS: '4000' });
    await busy.waitFor((e) => e.event === 'ready');
    const [scan] = await queueScans(1);
    await busy.waitFor((e) => e.event === 'active' && e.scanId === scan!.scanId);
    // A second worker checks for stalled scans every 5 s meanwhile, and would take this one if its lock lapsed.
    const watcher = spawn({ SCANNER_CONCURRENCY: '1' });
    await watcher.waitFor((e) => e.event === 'ready');

    await busy.waitFor((e) => e.event === 'completed' && e.scanId === scan!.scanId, 30_000);
    expect(watcher.events.filter((e) => e.event === 'active' || e.event === 'stalled')).toEqual([]);
    const job = await ctx.deps.queues.scan.getJob(scan!.scanId);
    expect(job?.stalledCounter).toBe(0);
    expect(job?.attemptsStarted).toBe(1);
    expect(await writtenOnce([scan!])).toBe(true);
  }, 90_000);

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
    expect((await ctx.deps.queues.scan.getJob(scan!.scanId))?.finishedOn).toBeTruthy();
  });
});
