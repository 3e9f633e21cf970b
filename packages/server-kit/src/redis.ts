import { Redis, type RedisOptions } from 'ioredis';

/**
 * One ioredis connection per role (BullMQ's production guide):
 * - `worker`: BullMQ workers need `maxRetriesPerRequest: null` to block on the queue;
 * - `producer`: calls in an HTTP path fail fast (no offline queue) so a down Redis answers 503 instead of hanging;
 * - `client`: rate limits and small reads.
 * Never set ioredis `keyPrefix`; BullMQ has its own `prefix`.
 */
export type RedisRole = 'worker' | 'producer' | 'client';

export function createRedis(url: string, role: RedisRole, extra: RedisOptions = {}): Redis {
  const options: RedisOptions =
    role === 'worker'
      ? { maxRetriesPerRequest: null }
      : { maxRetriesPerRequest: 1, enableOfflineQueue: role !== 'producer', connectTimeout: 2_000 };
  return new Redis(url, { lazyConnect: false, ...options, ...extra });
}

export async function pingRedis(url: string, timeoutMs = 2_000): Promise<boolean> {
  const redis = new Redis(url, { lazyConnect: true, connectTimeout: timeoutMs, maxRetriesPerRequest: 0, retryStrategy: () => null });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    return (await redis.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    redis.disconnect();
  }
}
