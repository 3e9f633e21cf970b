import type { Redis } from 'ioredis';

/** Deletes every key under a prefix with SCAN (never KEYS, which blocks a shared server). */
export async function deletePrefixedKeys(redis: Redis, prefix: string): Promise<void> {
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
    cursor = next;
    if (keys.length) await redis.del(...keys);
  } while (cursor !== '0');
}
