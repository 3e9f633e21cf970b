import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { inject } from 'vitest';
import type {} from './provided-context.js';
import { deletePrefixedKeys } from './redis-keys.js';

export function testRedisUrl(): string {
  return inject('redisUrl');
}

/**
 * Redis is shared by every test file, so each file gets its own key prefix (BullMQ `prefix`, rate
 * limit keys) instead of flushing the server.
 */
export function uniquePrefix(label = 't'): string {
  return `${label}-${randomBytes(5).toString('hex')}`;
}

/** Deletes every key under a prefix, for a file's (or a benchmark's) clean-up; the tests' Redis unless told. */
export async function deleteKeys(prefix: string, redisUrl: string = testRedisUrl()): Promise<void> {
  const redis = new Redis(redisUrl);
  try {
    await deletePrefixedKeys(redis, prefix);
  } finally {
    redis.disconnect();
  }
}
