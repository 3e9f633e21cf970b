import { Redis, type RedisOptions } from 'ioredis';
import type { Logger } from './logger.js';

/**
 * One ioredis connection per role (BullMQ's production guide):
 * - `worker`: BullMQ workers need `maxRetriesPerRequest: null` to block on the queue;
 * - `producer`: calls in an HTTP path fail fast (no offline queue) so a down Redis answers 503 instead of hanging;
 * - `client`: rate limits and small reads.
 * Never set ioredis `keyPrefix`; BullMQ has its own `prefix`.
 * `disableClientInfo`: the CLIENT SETINFO that ioredis 5.11 sends first waits on a file read, and a
 * connection closed in that gap fails its ready check as an unhandled rejection (closeRedis).
 */
export type RedisRole = 'worker' | 'producer' | 'client';

export function createRedis(url: string, role: RedisRole, extra: RedisOptions = {}): Redis {
  const options: RedisOptions =
    role === 'worker'
      ? { maxRetriesPerRequest: null }
      : { maxRetriesPerRequest: 1, enableOfflineQueue: role !== 'producer', connectTimeout: 2_000 };
  return new Redis(url, { lazyConnect: false, disableClientInfo: true, ...options, ...extra });
}

/**
 * Closes a connection whatever its state: QUIT once it is ready (replies still owed arrive first),
 * otherwise a plain disconnect. A producer has no offline queue, so QUIT before it is ready fails and
 * leaves the socket connecting. Nor may it end mid-handshake: ioredis 5.11 runs its ready check after
 * an async gap and, if the connection ended meanwhile, rejects it unhandled. So a connection still
 * connecting may finish (within `settleMs`) first. Between retries there is no socket and no 'end' follows.
 */
export async function closeRedis(redis: Redis, settleMs = 2_000): Promise<void> {
  if (redis.status === 'connecting' || redis.status === 'connect') {
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        for (const event of ['ready', 'close', 'end']) redis.off(event, done);
        resolve();
      };
      const timer = setTimeout(done, settleMs);
      for (const event of ['ready', 'close', 'end']) redis.once(event, done);
    });
  }
  const ended = redis.status === 'ready' ? new Promise((resolve) => redis.once('end', resolve)) : undefined;
  const quitted = redis.status === 'ready' && (await redis.quit().then(() => true, () => false));
  if (!quitted) redis.disconnect();
  await ended;
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

/** Connections whose eviction policy was checked, so each warns at most once. */
const evictionChecked = new WeakSet<Redis>();

/**
 * Warns when the Redis in use may evict keys under memory pressure: BullMQ's jobs, locks and
 * schedulers would vanish (`maxmemory-policy` must be `noeviction`, BullMQ's production guide). Managed
 * Redis often refuses CONFIG: then it warns that the policy could not be checked. Never throws; at
 * most one warning per connection (createQueues checks the one its queues share).
 */
export async function warnUnlessNoEviction(redis: Redis, logger: Logger): Promise<void> {
  if (evictionChecked.has(redis)) return;
  evictionChecked.add(redis);
  // A producer connection has no offline queue: asking before it is ready would fail, not wait.
  if (redis.status !== 'ready') await new Promise((resolve) => redis.once('ready', resolve));
  try {
    const [, policy] = (await redis.config('GET', 'maxmemory-policy')) as [string?, string?];
    if (policy === undefined) throw new Error('no maxmemory-policy in the answer');
    if (policy !== 'noeviction') logger.warn({ maxmemoryPolicy: policy }, "Redis may evict keys (maxmemory-policy is not noeviction): queued jobs and schedulers can vanish; set maxmemory-policy noeviction");
  } catch (err) {
    logger.warn({ err }, "could not read Redis' maxmemory-policy (CONFIG GET refused?): make sure it is noeviction, or queued jobs can vanish");
  }
}
