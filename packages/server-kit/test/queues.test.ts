import { JobName, QueueName } from '@sendwell/contracts';
import { deleteKeys, startRedisServer, testRedisUrl, uniquePrefix } from '@sendwell/testing';
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../src/logger.js';
import { createQueues, keepJobSchedulers, type JobSchedulerSpec, type Queues } from '../src/queues.js';
import { createRedis, pingRedis, warnUnlessNoEviction } from '../src/redis.js';

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

  it('gives up on a Redis that never answers after the add timeout, instead of waiting with BullMQ', async () => {
    const dead = createRedis('redis://127.0.0.1:1', 'producer', { retryStrategy: () => 50 });
    dead.on('error', () => undefined);
    const stuck = createQueues(dead, prefix, createLogger('test', 'silent'), 300);
    try {
      const started = Date.now();
      await expect(stuck.add(JobName.SweepDueDomains, {})).rejects.toThrow(/did not answer within 300 ms/);
      expect(Date.now() - started).toBeLessThan(2_000);
    } finally {
      dead.disconnect();
      await Promise.race([stuck.close(), new Promise((resolve) => setTimeout(resolve, 500))]);
    }
  });
});

describe('pingRedis', () => {
  it('tells a live server from a closed port', async () => {
    expect(await pingRedis(testRedisUrl())).toBe(true);
    expect(await pingRedis('redis://127.0.0.1:1', 500)).toBe(false);
  });
});

/** A logger whose JSON lines the test reads. */
function capturedLogger() {
  const lines: Array<{ level: number; msg: string; [key: string]: unknown }> = [];
  const logger = createLogger('test', 'info', { write: (line: string) => void lines.push(JSON.parse(line)) });
  return { logger, lines, warnings: () => lines.filter((l) => l.level === 40) };
}

async function eventually<T>(probe: () => Promise<T>, timeoutMs = 10_000): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`not true within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('keepJobSchedulers', () => {
  const sweep: JobSchedulerSpec = { id: 'test-sweeper', repeat: { every: 60_000 }, template: { name: JobName.SweepDueDomains, data: {} } };
  const nightly: JobSchedulerSpec = { id: 'test-nightly', repeat: { pattern: '0 3 * * *', tz: 'UTC' }, template: { name: JobName.NightlyCleanUp, data: {} } };

  async function withQueue(checkEveryMs: number, test: (queue: Queue, log: ReturnType<typeof capturedLogger>, keyPrefix: string) => Promise<void>) {
    const keyPrefix = uniquePrefix('kit-sched');
    const connection = createRedis(testRedisUrl(), 'client');
    const queue = new Queue(QueueName.Maintenance, { connection, prefix: keyPrefix });
    const log = capturedLogger();
    try {
      await keepJobSchedulers(queue, [sweep, nightly], log.logger, checkEveryMs);
      expect((await queue.getJobSchedulers()).map((s) => s.key).sort()).toEqual(['test-nightly', 'test-sweeper']);
      await test(queue, log, keyPrefix);
    } finally {
      await queue.close();
      connection.disconnect();
      await deleteKeys(keyPrefix);
    }
  }

  it('registers the schedulers again when their keys vanish (Redis emptied under a live connection)', async () => {
    await withQueue(200, async (queue, log, keyPrefix) => {
      await deleteKeys(keyPrefix);
      expect(await queue.getJobScheduler(sweep.id)).toBeUndefined();
      await eventually(async () => (await queue.getJobSchedulers()).length === 2);
      expect((await queue.getJobScheduler(nightly.id))?.pattern).toBe('0 3 * * *');
      expect(log.warnings().some((l) => l.msg.includes('registered again'))).toBe(true);
    });
  });

  it('registers them again on every reconnection, without waiting for the periodic check', async () => {
    await withQueue(3_600_000, async (queue, log, keyPrefix) => {
      const client = await queue.client;
      await deleteKeys(keyPrefix);
      // A Redis restarted empty: the connection drops and comes back.
      client.disconnect(true);
      await eventually(async () => (await queue.getJobSchedulers()).length === 2);
      expect(log.lines.some((l) => l.msg.includes('after a reconnection'))).toBe(true);
    });
  });
});

describe('warnUnlessNoEviction', () => {
  it('warns, once per connection, when Redis may evict keys, and not when it may not', async () => {
    const evicting = await startRedisServer(['--maxmemory-policy', 'allkeys-lru']);
    const safe = await startRedisServer(['--maxmemory-policy', 'noeviction']);
    // Producer connections, as createQueues gets in auth and domains: checked once connected, not refused before.
    const connections = [createRedis(evicting.url, 'producer'), createRedis(safe.url, 'producer')];
    try {
      const log = capturedLogger();
      await warnUnlessNoEviction(connections[0]!, log.logger);
      await warnUnlessNoEviction(connections[0]!, log.logger);
      await warnUnlessNoEviction(connections[1]!, log.logger);
      expect(log.warnings().map((l) => [l.msg.slice(0, 20), l.maxmemoryPolicy])).toEqual([['Redis may evict keys', 'allkeys-lru']]);
    } finally {
      connections.forEach((c) => c.disconnect());
      await Promise.all([evicting.close(), safe.close()]);
    }
  });

  it('says the policy could not be checked when CONFIG is refused, as managed Redis does', async () => {
    const managed = await startRedisServer(['--rename-command', 'CONFIG', '']);
    const connection = createRedis(managed.url, 'client');
    try {
      const log = capturedLogger();
      await warnUnlessNoEviction(connection, log.logger);
      await warnUnlessNoEviction(connection, log.logger);
      expect(log.warnings()).toHaveLength(1);
      expect(log.warnings()[0]!.msg).toContain('could not read');
      expect(await connection.ping()).toBe('PONG');
    } finally {
      connection.disconnect();
      await managed.close();
    }
  });
});
