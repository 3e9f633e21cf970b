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

/** Deletes every key under a prefix, for a file's clean-up. */
export async function deleteKeys(prefix: string): Promise<void> {
  const redis = new Redis(testRedisUrl());
  try {
    await deletePrefixedKeys(redis, prefix);
  } finally {
    redis.disconnect();
  }
}
