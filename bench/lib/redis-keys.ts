/** Removes a run's BullMQ keys from the shared Redis (SCAN by prefix, never FLUSHALL: others use it). */
import { closeRedis, createRedis } from '@sendwell/server-kit';

export async function deleteRedisPrefix(redisUrl: string, prefix: string): Promise<number> {
  const redis = createRedis(redisUrl, 'client');
  let deleted = 0;
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length) deleted += await redis.unlink(...keys);
    } while (cursor !== '0');
  } finally {
    await closeRedis(redis);
  }
  return deleted;
}
