import { QueueName } from '@sendwell/contracts';
import { createTestDb, deleteKeys, testRedisUrl, uniquePrefix, type TestDb } from '@sendwell/testing';
import type { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger, createQueues, createRedis, type Queues } from '@sendwell/server-kit';
import { createScan, ScanRequests } from '../src/requests/scan-requests.js';

const prefix = uniquePrefix('scan-requests');
const redis = createRedis(testRedisUrl(), 'client');
let t: TestDb;
let queues: Queues;
let requests: ScanRequests;
let domainId: number;

beforeAll(async () => {
  t = await createTestDb();
  queues = createQueues(redis, prefix, createLogger('test', 'silent'));
  requests = new ScanRequests(queues[QueueName.Scan]);
  const user = await t.db.insertInto('users').values({ username: 'u', email: 'u@example.com', passwordHash: 'x' }).returning('id').executeTakeFirstOrThrow();
  domainId = (await t.db.insertInto('domains').values({ userId: user.id, name: 'example.com' }).returning('id').executeTakeFirstOrThrow()).id;
});
afterAll(async () => {
  await queues.close();
  redis.disconnect();
  await deleteKeys(prefix);
  await t.close();
});

const statusOf = async (id: string) => (await t.db.selectFrom('scans').select('status').where('id', '=', id).executeTakeFirst())?.status;

describe('ScanRequests', () => {
  it('queues one scan per domain: a second request of a domain with one pending is deleted and points at the pending one', async () => {
    const first = await createScan(t.db, domainId, 'manual');
    const second = await createScan(t.db, domainId, 'scheduled');
    const outcome = await requests.queue(t.db, [{ scanId: first, domainId, trigger: 'manual' }], 'unqueued');
    expect(outcome.queued.map((s) => s.scanId)).toEqual([first]);
    const again = await requests.queue(t.db, [{ scanId: second, domainId, trigger: 'scheduled' }], 'unqueued');
    expect(again.deduplicated).toEqual([{ scanId: second, domainId, trigger: 'scheduled', pendingScanId: first }]);
    expect(await statusOf(first)).toBe('queued');
    expect(await statusOf(second)).toBeUndefined();
    expect((await queues[QueueName.Scan].getJob(first))?.data).toEqual({ scanId: first, domainId, trigger: 'manual' });
  });

  it('fails the rows whose jobs the queue refused, and throws', async () => {
    const refusing = { addBulk: async () => Promise.reject(new Error('READONLY')) } as unknown as Queue;
    const scanId = await createScan(t.db, domainId, 'manual');
    await expect(new ScanRequests(refusing).queue(t.db, [{ scanId, domainId, trigger: 'manual' }], 'could not be queued')).rejects.toThrow('READONLY');
    expect(await t.db.selectFrom('scans').select(['status', 'error']).where('id', '=', scanId).executeTakeFirst()).toEqual({ status: 'failed', error: 'could not be queued' });
  });

  it('stops waiting for a queue that never answers after its timeout', async () => {
    const silent = { addBulk: () => new Promise(() => undefined) } as unknown as Queue;
    const scanId = await createScan(t.db, domainId, 'manual');
    await expect(new ScanRequests(silent, 200).queue(t.db, [{ scanId, domainId, trigger: 'manual' }], 'timed out')).rejects.toThrow(/within 200 ms/);
    expect(await statusOf(scanId)).toBe('failed');
  });
});
