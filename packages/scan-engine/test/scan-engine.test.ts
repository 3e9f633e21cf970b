import { AlertType, MANUAL_SCAN_COOLDOWN_MS, QueueName } from '@sendwell/contracts';
import { createLogger, createQueues, createRedis, type Queues } from '@sendwell/server-kit';
import { createTestDb, deleteKeys, testRedisUrl, uniquePrefix, type TestDb } from '@sendwell/testing';
import type { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NewAlert } from '../src/alerts/alert-types.js';
import { ScanEngine } from '../src/scan-engine.js';

const prefix = uniquePrefix('scan-engine');
const redis = createRedis(testRedisUrl(), 'client');
const logger = createLogger('test', 'silent');
let t: TestDb;
let queues: Queues;
let engine: ScanEngine;
let serial = 0;

beforeAll(async () => {
  t = await createTestDb();
  queues = createQueues(redis, prefix, logger);
  engine = new ScanEngine({ db: t.db, queues, logger });
});
afterAll(async () => {
  await queues.close();
  redis.disconnect();
  await deleteKeys(prefix);
  await t.close();
});

async function userWithDomain(plan = 'basic') {
  serial += 1;
  const user = await t.db
    .insertInto('users')
    .values({ username: `engine-${serial}`, email: `engine-${serial}@example.com`, passwordHash: 'x', planType: plan })
    .returning('id')
    .executeTakeFirstOrThrow();
  const row = await t.db
    .insertInto('domains')
    .values({ userId: user.id, name: `e${serial}.example` })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { userId: user.id, domainId: row.id };
}

const domainRow = (id: number) => t.db.selectFrom('domains').select(['nextScanAt', 'scanPaused', 'lastManualScanAt']).where('id', '=', id).executeTakeFirstOrThrow();

describe('ScanEngine.requestManual', () => {
  it('claims the cooldown, writes a queued scan and adds its job; a second request cools down', async () => {
    const { userId, domainId } = await userWithDomain();
    const first = await engine.requestManual(userId, domainId, 'manual', MANUAL_SCAN_COOLDOWN_MS, 'unqueued');
    expect(first).toMatchObject({ kind: 'queued', deduplicated: false });
    if (first.kind !== 'queued') return;
    expect((await queues[QueueName.Scan].getJob(first.scanId))?.data).toEqual({ scanId: first.scanId, domainId, trigger: 'manual' });
    expect(await t.db.selectFrom('scans').select(['status', 'trigger']).where('id', '=', first.scanId).executeTakeFirst()).toEqual({ status: 'queued', trigger: 'manual' });
    const second = await engine.requestManual(userId, domainId, 'blacklist', MANUAL_SCAN_COOLDOWN_MS, 'unqueued');
    expect(second.kind).toBe('cooling');
  });

  it("answers missing for another user's domain and paused for a domain above the plan's limit", async () => {
    const { domainId } = await userWithDomain();
    const other = await userWithDomain();
    expect(await engine.requestManual(other.userId, domainId, 'manual', MANUAL_SCAN_COOLDOWN_MS, 'unqueued')).toEqual({ kind: 'missing' });
    const paused = await userWithDomain();
    await t.db.updateTable('domains').set({ scanPaused: true }).where('id', '=', paused.domainId).execute();
    expect(await engine.requestManual(paused.userId, paused.domainId, 'manual', MANUAL_SCAN_COOLDOWN_MS, 'unqueued')).toEqual({ kind: 'paused' });
  });

  it('gives the cooldown back and fails the scan row when the queue refuses, then throws', async () => {
    const refusing = { ...queues, scan: { addBulk: async () => Promise.reject(new Error('READONLY')) } as unknown as Queue } as Queues;
    const refused = new ScanEngine({ db: t.db, queues: refusing, logger });
    const { userId, domainId } = await userWithDomain();
    await expect(refused.requestManual(userId, domainId, 'manual', MANUAL_SCAN_COOLDOWN_MS, 'could not be queued')).rejects.toThrow('READONLY');
    expect((await domainRow(domainId)).lastManualScanAt).toBeNull();
    expect(await t.db.selectFrom('scans').select(['status', 'error']).where('domainId', '=', domainId).execute()).toEqual([{ status: 'failed', error: 'could not be queued' }]);
  });
});

describe('ScanEngine.applyPlan', () => {
  it('unschedules a deleted domain and schedules an active one of a paid plan now', async () => {
    const { userId, domainId } = await userWithDomain('standard');
    const deleted = await t.db
      .insertInto('domains')
      .values({ userId, name: `gone-${serial}.example`, isDeleted: true, deletedAt: new Date(), nextScanAt: new Date() })
      .returning('id')
      .executeTakeFirstOrThrow();
    expect(await engine.applyPlan(t.db, userId)).toEqual({ scheduled: 1, paused: 0 });
    expect((await domainRow(domainId)).nextScanAt).not.toBeNull();
    expect((await domainRow(deleted.id)).nextScanAt).toBeNull();
  });
});

describe('ScanEngine.alerts', () => {
  it('raises a condition once while it is open (null for the second raise), and resolves it once', async () => {
    const { userId, domainId } = await userWithDomain();
    const alert: NewAlert = { type: AlertType.BlacklistListed, severity: 'high', title: 't', message: 'm', details: {}, conditionKey: `k-${serial}` };
    const store = engine.alerts();
    const [id] = await store.raise({ domainId, userId }, [alert], new Date());
    expect(id).toEqual(expect.any(Number));
    expect(await store.raise({ domainId, userId }, [alert], new Date())).toEqual([null]);
    expect(await store.openConditions(domainId)).toEqual([{ id, conditionKey: alert.conditionKey }]);
    expect(await store.resolve([id!], new Date())).toEqual([id]);
    expect(await store.resolve([id!], new Date())).toEqual([]);
  });
});
