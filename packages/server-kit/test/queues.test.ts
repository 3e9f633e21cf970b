import { JobName, QueueName } from '@sendwell/contracts';
import { deleteKeys, testRedisUrl, uniquePrefix } from '@sendwell/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../src/logger.js';
import { createQueues, type Queues } from '../src/queues.js';
import { createRedis, pingRedis } from '../src/redis.js';

const prefix = uniquePrefix('kit');
const redis = createRedis(testRedisUrl(), 'producer');
let queues: Queues;

beforeAll(() => {
  queues = createQueues(redis, prefix, createLogger('test', 'silent'));
});
afterAll(async () => {
  await queues.close();
  redis.disconnect();
  await deleteKeys(prefix);
});

describe('createQueues', () => {
  it('puts each job on its queue under the given prefix, deduplicated by job id', async () => {
    const data = { scanId: '2f1b7c1e-8c1a-4a53-9a55-3c4c8f0b2a10', domainId: 7, trigger: 'manual' as const };
    await queues.add(JobName.ScanDomain, data, { jobId: 'scan-7' });
    await queues.add(JobName.ScanDomain, data, { jobId: 'scan-7' });
    expect(await queues[QueueName.Scan].getJobCountByTypes('waiting')).toBe(1);
    const job = await queues[QueueName.Scan].getJob('scan-7');
    expect(job?.name).toBe('scan-domain');
    expect(job?.data).toEqual(data);
    expect(await redis.exists(`${prefix}:scan:scan-7`)).toBe(1);
  });

  it('refuses a payload that breaks the job contract', async () => {
    await expect(queues.add(JobName.ScanDomain, { scanId: 'nope', domainId: 1, trigger: 'manual' })).rejects.toThrow();
  });
});

describe('pingRedis', () => {
  it('tells a live server from a closed port', async () => {
    expect(await pingRedis(testRedisUrl())).toBe(true);
    expect(await pingRedis('redis://127.0.0.1:1', 500)).toBe(false);
  });
});
