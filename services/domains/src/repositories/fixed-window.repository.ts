import type { Redis } from 'ioredis';

/**
 * A fixed window counter in Redis: the first hit creates the key with the window as its TTL, later
 * hits increment it; INCR and PEXPIRE run in one script so a key can never be left without a TTL.
 */
const HIT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return { count, redis.call('PTTL', KEYS[1]) }
`;

export interface WindowHit {
  count: number;
  /** Milliseconds until the window resets. */
  resetInMs: number;
}

export class FixedWindowRepository {
  constructor(
    private readonly redis: Redis,
    /** Namespaces the keys (the service's QUEUE_PREFIX), so tests and deployments sharing a Redis stay apart. */
    private readonly prefix: string,
  ) {}

  async hit(name: string, subject: string | number, windowMs: number): Promise<WindowHit> {
    const [count, ttl] = (await this.redis.eval(HIT, 1, `${this.prefix}:ratelimit:${name}:${subject}`, windowMs)) as [number, number];
    return { count, resetInMs: ttl > 0 ? ttl : windowMs };
  }
}
