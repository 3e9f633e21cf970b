import type { Redis } from 'ioredis';

/**
 * A fixed window counter in Redis: the first hit creates the key with the window as its TTL, later
 * hits increment it; INCR and PEXPIRE run in one script so a key can never be left without a TTL.
 */
const HIT = `
local count = redis.call('INCRBY', KEYS[1], ARGV[2])
if count == tonumber(ARGV[2]) then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
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

  /** Counts `by` hits (one by default) and answers the window's count after them. */
  async hit(name: string, subject: string | number, windowMs: number, by = 1): Promise<WindowHit> {
    const [count, ttl] = (await this.redis.eval(HIT, 1, this.key(name, subject), windowMs, by)) as [number, number];
    return { count, resetInMs: ttl > 0 ? ttl : windowMs };
  }

  /** Gives back hits that were refused, so a refused request does not use up the window. */
  async refund(name: string, subject: string | number, by: number): Promise<void> {
    await this.redis.decrby(this.key(name, subject), by);
  }

  private key(name: string, subject: string | number): string {
    return `${this.prefix}:ratelimit:${name}:${subject}`;
  }
}
