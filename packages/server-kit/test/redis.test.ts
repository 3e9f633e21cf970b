import { testRedisUrl, uniquePrefix } from '@sendwell/testing';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../src/logger.js';
import { createQueues } from '../src/queues.js';
import { closeRedis, createRedis } from '../src/redis.js';

const rejections: unknown[] = [];
const onRejection = (reason: unknown) => rejections.push(reason);

afterEach(() => {
  process.off('unhandledRejection', onRejection);
  rejections.length = 0;
});

describe('closeRedis', () => {
  it('ends a producer closed before it is ready, with no ready check failing later', async () => {
    process.on('unhandledRejection', onRejection);
    const redis = createRedis(testRedisUrl(), 'producer');
    redis.on('error', () => undefined);
    await closeRedis(redis);
    // A QUIT here fails (no offline queue) and the socket goes on connecting: wait for what it would do.
    await sleep(300);
    expect(redis.status).toBe('end');
    expect(rejections).toEqual([]);
  });

  it('closes connections caught mid-handshake, with no ready check failing later', async () => {
    process.on('unhandledRejection', onRejection);
    const connections = Array.from({ length: 5 }, () => createRedis(testRedisUrl(), 'producer'));
    await Promise.all(connections.map((redis) => new Promise((resolve) => redis.once('connect', resolve)).then(() => closeRedis(redis))));
    await sleep(300);
    expect(connections.map((redis) => redis.status)).toEqual(connections.map(() => 'end'));
    expect(rejections).toEqual([]);
  });

  it('lets replies still owed arrive before it ends a ready connection', async () => {
    const redis = createRedis(testRedisUrl(), 'client');
    await new Promise((resolve) => redis.once('ready', resolve));
    const pong = redis.ping();
    await closeRedis(redis);
    await expect(pong).resolves.toBe('PONG');
    expect(redis.status).toBe('end');
  });

  it('is harmless on a connection already ended', async () => {
    const redis = createRedis(testRedisUrl(), 'client');
    redis.disconnect();
    await expect(closeRedis(redis)).resolves.toBeUndefined();
    expect(redis.status).toBe('end');
  });

  it('returns at once for a connection waiting to retry, and stops its retries', async () => {
    const redis = createRedis('redis://127.0.0.1:1', 'producer', { retryStrategy: () => 100 });
    let attempts = 0;
    redis.on('error', () => attempts++);
    while (redis.status !== 'reconnecting') await sleep(10);
    await closeRedis(redis);
    const seen = attempts;
    await sleep(300);
    expect(attempts).toBe(seen);
  });
});

describe('createQueues then close at once', () => {
  it('leaves no command of a queue still starting to fail where nobody listens', async () => {
    process.on('unhandledRejection', onRejection);
    const logger = createLogger('queues-test', 'silent');
    // As a service built and closed at once (the API fuzz test reads route tables that way), many times.
    await Promise.all(
      Array.from({ length: 20 }, async () => {
        const redis = createRedis(testRedisUrl(), 'producer');
        redis.on('error', () => undefined);
        const queues = createQueues(redis, uniquePrefix('close-at-once'), logger);
        await queues.close();
        await closeRedis(redis);
      }),
    );
    await sleep(300);
    expect(rejections).toEqual([]);
  });
});
