import { sendAlertJobId } from '@sendwell/contracts';
import { closeRedis, createQueues, createRedis } from '@sendwell/server-kit';
import { createTestDb, deleteKeys, testRedisUrl, uniquePrefix, type TestDb } from '@sendwell/testing';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ScanEngine, ScanRecorder } from '@sendwell/scan-engine';
import { recordScan } from '../../src/scan/record-scan.js';
import { DailyReputation } from '../../src/scoring/daily-reputation.js';
import { silentLogger } from '../queue/harness.js';
import { factory, outcomeData } from './factory.js';

let testDb: TestDb;
let redis: Redis;
let queues: ReturnType<typeof createQueues>;
const prefix = uniquePrefix('daily-reputation');
let now = new Date('2026-11-21T12:00:00.000Z');

beforeAll(async () => {
  testDb = await createTestDb();
  redis = createRedis(testRedisUrl(), 'client');
  queues = createQueues(redis, prefix, silentLogger);
});

afterAll(async () => {
  await queues.close();
  await closeRedis(redis);
  await deleteKeys(prefix);
  await testDb.close();
});

const pointsOf = (domainId: number) =>
  testDb.db.selectFrom('domainReputationHistory').select(['score', 'previousScore', 'trend', 'dailyFor', 'scanId']).where('domainId', '=', domainId).orderBy('id').execute();

describe('the daily reputation job (02:00 UTC)', () => {
  it("writes one point per active paid domain and day from its latest scan, and a second run that day writes nothing", async () => {
    const f = factory(testDb.db);
    const recorder = new ScanRecorder(testDb.db, () => now);
    const paid = await f.domain({ plan: 'standard' });
    const free = await f.domain({ plan: 'free' });
    const deleted = await f.domain({ plan: 'advanced' });
    for (const d of [paid, free, deleted]) await recordScan(recorder, await f.scan(d.id), outcomeData());
    await testDb.db.updateTable('domains').set({ isDeleted: true, deletedAt: now }).where('id', '=', deleted.id).execute();

    now = new Date('2026-11-22T02:00:00.000Z');
    const job = new DailyReputation(testDb.db, new ScanEngine({ db: testDb.db, queues, logger: silentLogger }), silentLogger, () => now);
    const first = await job.run();
    expect(first).toMatchObject({ written: 1, alerts: 0 });
    expect(await job.run()).toMatchObject({ written: 0 });

    const points = await pointsOf(paid.id);
    expect(points).toHaveLength(2);
    expect(points[1]).toMatchObject({ score: 100, previousScore: 100, trend: 'stable' });
    expect(points[1]!.dailyFor?.toISOString().slice(0, 10)).toBe('2026-11-22');
    expect(await pointsOf(free.id)).toHaveLength(1);
    expect(await pointsOf(deleted.id)).toHaveLength(1);
  });

  it('raises status_change when the day\'s score crosses a label boundary, and queues its delivery', async () => {
    const f = factory(testDb.db);
    const recorder = new ScanRecorder(testDb.db, () => now);
    const domain = await f.domain({ plan: 'basic' });
    await recordScan(recorder, await f.scan(domain.id), outcomeData());
    // The previous point says Fair (55), e.g. scored under older rules; today's recalculation says Excellent.
    await testDb.db.insertInto('domainReputationHistory').values({ domainId: domain.id, score: 55, factors: '{}', calculatedAt: new Date(now.getTime() + 1000) }).execute();

    now = new Date('2026-11-23T02:00:00.000Z');
    const result = await new DailyReputation(testDb.db, new ScanEngine({ db: testDb.db, queues, logger: silentLogger }), silentLogger, () => now).run();
    expect(result.alerts).toBe(1);
    const alert = await testDb.db.selectFrom('domainAlerts').select(['id', 'type', 'severity', 'title']).where('domainId', '=', domain.id).executeTakeFirstOrThrow();
    expect(alert).toMatchObject({ type: 'status_change', severity: 'low' });
    expect(alert.title).toContain('reputation rose from Fair to Excellent (55 → 100)');
    expect(await queues.notify.getJob(sendAlertJobId(alert.id, 'raised'))).toBeTruthy();
  });
});
