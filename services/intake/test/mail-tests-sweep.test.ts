import { analyseMailTestJobId, JobName, MAIL_TEST_RETENTION_DAYS, mailTestChannel, QueueName } from '@sendwell/contracts';
import { Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAIL_TEST_NOT_ANALYSED, sweepUnanalysedMailTests } from '../src/mail-tests/sweep-unanalysed-mail-tests.js';
import { pruneMailFlow } from '../src/storage/prune-mail-flow.js';
import { intakeSchedulers } from '../src/workers/intake.schedulers.js';
import { startHarness, type Harness } from './fixtures.js';
import { createMailTest } from './mail-tests/running-intake.js';

const MINUTE_MS = 60_000;

describe('sweep of unanalysed mail tests', () => {
  let h: Harness;
  let headers: Record<string, string>;
  beforeAll(async () => {
    h = await startHarness();
    headers = await h.auth(await h.f.user('standard'));
  });
  afterAll(async () => {
    await h?.close();
  });

  /** A test whose message came in `agoMs` ago, with `attempts` analyses started. */
  async function receivedTest(agoMs: number, attempts = 0) {
    const test = await createMailTest(h, headers);
    await h.db.updateTable('inboxPlacementTests').set({ status: 'received', receivedAt: new Date(Date.now() - agoMs), attempts }).where('id', '=', test.id).execute();
    return test.id;
  }

  it('runs every minute on the intake queue', () => {
    expect(intakeSchedulers.find((s) => s.id === JobName.SweepUnanalysedMailTests)).toMatchObject({ repeat: { every: MINUTE_MS } });
  });

  it('queues a stuck test again, then fails it once its analyses ran out, telling its streams', async () => {
    const stuck = await receivedTest(3 * MINUTE_MS);
    const fresh = await receivedTest(10_000);
    expect(await sweepUnanalysedMailTests(h.deps)).toEqual({ queued: 1, failed: 0 });
    const job = await h.deps.queues.scan.getJob(analyseMailTestJobId(stuck));
    expect(job?.data).toEqual({ testId: stuck });
    expect(await h.deps.queues.scan.getJob(analyseMailTestJobId(fresh))).toBeUndefined();
    // Its job still waiting: nothing more to queue.
    expect(await sweepUnanalysedMailTests(h.deps)).toEqual({ queued: 0, failed: 0 });

    // The scanner started it three times and never finished.
    await h.db.updateTable('inboxPlacementTests').set({ attempts: 3 }).where('id', '=', stuck).execute();
    const subscriber = new Redis(h.deps.env.REDIS_URL);
    try {
      const published = new Promise<string>((resolve) => subscriber.once('message', (_channel: string, message: string) => resolve(message)));
      await subscriber.subscribe(mailTestChannel(stuck));
      expect(await sweepUnanalysedMailTests(h.deps)).toEqual({ queued: 0, failed: 1 });
      expect(await published).toBe('failed');
    } finally {
      subscriber.disconnect();
    }
    const answer = await h.app.inject({ method: 'GET', url: `/api/mail-tests/${stuck}`, headers });
    expect(answer.json()).toMatchObject({ status: 'failed', error: MAIL_TEST_NOT_ANALYSED });
    // Given up, its message is not kept.
    expect((await h.db.selectFrom('inboxPlacementTests').select('rawGz').where('id', '=', stuck).executeTakeFirstOrThrow()).rawGz).toBeNull();
    expect(await sweepUnanalysedMailTests(h.deps)).toEqual({ queued: 0, failed: 0 });
  });

  it('queues a test again whose previous job finished without an analysis', async () => {
    const id = await receivedTest(5 * MINUTE_MS, 1);
    const jobId = analyseMailTestJobId(id);
    await h.deps.queues.add(JobName.AnalyseMailTest, { testId: id }, { jobId });
    // A scanner run that ended without storing anything (a deploy in between, say): the job is completed, the test still received.
    const connection = new Redis(h.deps.env.REDIS_URL, { maxRetriesPerRequest: null });
    const worker = new Worker(QueueName.Scan, async () => 'nothing stored', { connection, prefix: h.prefix });
    try {
      await expect.poll(async () => (await h.deps.queues.scan.getJob(jobId))?.getState()).toBe('completed');
    } finally {
      await worker.close();
      connection.disconnect();
    }
    expect(await sweepUnanalysedMailTests(h.deps)).toEqual({ queued: 1, failed: 0 });
    expect(await (await h.deps.queues.scan.getJob(jobId))?.getState()).toBe('waiting');
  });
});

describe('pruning of mail tests', () => {
  it(`deletes tests older than ${MAIL_TEST_RETENTION_DAYS} days, message and analysis alike, and keeps the rest`, async () => {
    const h = await startHarness();
    try {
      const headers = await h.auth(await h.f.user('advanced'));
      const [old, kept] = [await createMailTest(h, headers), await createMailTest(h, headers)];
      const now = new Date();
      await h.db
        .updateTable('inboxPlacementTests')
        .set({ createdAt: new Date(now.getTime() - (MAIL_TEST_RETENTION_DAYS + 1) * 86_400_000), status: 'done', rawGz: Buffer.from('x') })
        .where('id', '=', old.id)
        .execute();
      await h.db.updateTable('inboxPlacementTests').set({ createdAt: new Date(now.getTime() - (MAIL_TEST_RETENTION_DAYS - 1) * 86_400_000) }).where('id', '=', kept.id).execute();
      const result = await pruneMailFlow(h.db, now);
      expect(result.mailTests).toBe(1);
      expect((await h.db.selectFrom('inboxPlacementTests').select('id').execute()).map((r) => r.id)).toEqual([kept.id]);
    } finally {
      await h.close();
    }
  });
});
