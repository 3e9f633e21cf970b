import type { Redis } from 'ioredis';

export interface LoginBackoff {
  /** Attempts allowed within `windowMs` before each further one waits. */
  limit: number;
  windowMs: number;
  /** The first wait; each attempt past the limit doubles it, up to `maxDelayMs`. */
  baseDelayMs: number;
  maxDelayMs: number;
}

/**
 * One script, so concurrent attempts see each other: a locked account answers the lock's remaining
 * milliseconds and counts nothing; otherwise the attempt is counted, and from the limit on it locks
 * the account for base·2^(count−limit) ms (capped). The count outlives a lock by a window, so the next
 * attempt after the lock doubles the wait instead of starting again.
 * KEYS: count, lock. ARGV: windowMs, limit, baseDelayMs, maxDelayMs.
 */
const ATTEMPT_SCRIPT = `
local locked = redis.call('PTTL', KEYS[2])
if locked > 0 then return locked end
local count = redis.call('INCR', KEYS[1])
local window = tonumber(ARGV[1])
local limit = tonumber(ARGV[2])
if count < limit then
  if redis.call('PTTL', KEYS[1]) < 0 then redis.call('PEXPIRE', KEYS[1], window) end
  return 0
end
local delay = math.floor(math.min(tonumber(ARGV[3]) * 2 ^ (count - limit), tonumber(ARGV[4])))
redis.call('SET', KEYS[2], '1', 'PX', delay)
redis.call('PEXPIRE', KEYS[1], delay + window)
return 0
`;

type AttemptCommand = (countKey: string, lockKey: string, windowMs: number, limit: number, baseDelayMs: number, maxDelayMs: number) => Promise<number>;

/** Login attempts per account in Redis, keyed by a digest of the email (never the address itself). */
export class LoginAttemptRepository {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {
    redis.defineCommand('authLoginAttempt', { numberOfKeys: 2, lua: ATTEMPT_SCRIPT });
  }

  /** Counts an attempt; answers 0 when it may proceed, else the milliseconds the account stays locked. */
  attempt(accountDigest: string, backoff: LoginBackoff): Promise<number> {
    const [countKey, lockKey] = this.keys(accountDigest);
    const command = (this.redis as unknown as { authLoginAttempt: AttemptCommand }).authLoginAttempt;
    return command.call(this.redis, countKey, lockKey, backoff.windowMs, backoff.limit, backoff.baseDelayMs, backoff.maxDelayMs);
  }

  async clear(accountDigest: string): Promise<void> {
    await this.redis.del(...this.keys(accountDigest));
  }

  /** Both keys share a hash tag, so a Redis Cluster keeps them in one slot (the script needs that). */
  private keys(accountDigest: string): [string, string] {
    const base = `${this.prefix}:{${accountDigest}}`;
    return [`${base}:count`, `${base}:lock`];
  }
}
