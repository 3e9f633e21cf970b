import type { Redis } from 'ioredis';

export interface LoginBackoff {
  /** Attempts allowed from one network within `windowMs` before each further one waits. */
  limit: number;
  /** Attempts allowed from all the networks the account never signed in from, together, likewise. */
  unknownNetworksLimit: number;
  windowMs: number;
  /** The first wait; each attempt past the limit doubles it, up to `maxDelayMs`. */
  baseDelayMs: number;
  maxDelayMs: number;
}

/** How many networks an account remembers, and for how long after its last sign-in from any. */
const KNOWN_NETWORKS_KEPT = 20;
const KNOWN_NETWORKS_TTL_MS = 90 * 24 * 3600 * 1000;

/**
 * One script, so concurrent attempts see each other. An attempt counts in its network's bucket and,
 * when the account never signed in from that network, in the account's bucket of unknown networks
 * too. A locked bucket answers its remaining milliseconds and counts nothing; otherwise the attempt is
 * counted, and from the limit on it locks the bucket for base·2^(count−limit) ms (capped). The count
 * outlives a lock by a window, so the next attempt after the lock doubles the wait instead of
 * starting again.
 * KEYS: known networks, network count, network lock, unknown count, unknown lock.
 * ARGV: network, windowMs, limit, unknownNetworksLimit, baseDelayMs, maxDelayMs.
 */
const ATTEMPT_SCRIPT = `
local window = tonumber(ARGV[2])
local function bump(countKey, lockKey, limit)
  local count = redis.call('INCR', countKey)
  if count < limit then
    if redis.call('PTTL', countKey) < 0 then redis.call('PEXPIRE', countKey, window) end
    return
  end
  local delay = math.floor(math.min(tonumber(ARGV[5]) * 2 ^ (count - limit), tonumber(ARGV[6])))
  redis.call('SET', lockKey, '1', 'PX', delay)
  redis.call('PEXPIRE', countKey, delay + window)
end
local known = redis.call('ZSCORE', KEYS[1], ARGV[1])
local locked = redis.call('PTTL', KEYS[3])
if not known then locked = math.max(locked, redis.call('PTTL', KEYS[5])) end
if locked > 0 then return locked end
bump(KEYS[2], KEYS[3], tonumber(ARGV[3]))
if not known then bump(KEYS[4], KEYS[5], tonumber(ARGV[4])) end
return 0
`;

/**
 * A sign-in with the right password: its network's bucket starts afresh and the network is known from
 * now on (the most recent ones kept). The unknown networks' bucket keeps its count, so an owner's
 * sign-in never resets a guesser elsewhere; only this attempt, counted there while the network was
 * new, is taken back, so the cap counts failures.
 * KEYS: known networks, network count, network lock, unknown count. ARGV: network, now, kept, ttlMs.
 */
const SUCCEEDED_SCRIPT = `
local added = redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
redis.call('ZREMRANGEBYRANK', KEYS[1], 0, -(tonumber(ARGV[3]) + 1))
redis.call('PEXPIRE', KEYS[1], ARGV[4])
redis.call('DEL', KEYS[2], KEYS[3])
if added == 1 and tonumber(redis.call('GET', KEYS[4]) or '0') > 0 then redis.call('DECR', KEYS[4]) end
return added
`;

type AttemptCommand = (...args: [string, string, string, string, string, string, number, number, number, number, number]) => Promise<number>;
type SucceededCommand = (...args: [string, string, string, string, string, number, number, number]) => Promise<number>;

/**
 * Login attempts per account and client network in Redis, and the networks each account signed in
 * from. Accounts and networks are keyed by digests (never an address or an IP).
 */
export class LoginAttemptRepository {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {
    redis.defineCommand('authLoginAttempt', { numberOfKeys: 5, lua: ATTEMPT_SCRIPT });
    redis.defineCommand('authLoginSucceeded', { numberOfKeys: 4, lua: SUCCEEDED_SCRIPT });
  }

  /** Counts an attempt; answers 0 when it may proceed, else the milliseconds its bucket stays locked. */
  attempt(accountDigest: string, networkDigest: string, backoff: LoginBackoff): Promise<number> {
    const k = this.keys(accountDigest, networkDigest);
    const command = (this.redis as unknown as { authLoginAttempt: AttemptCommand }).authLoginAttempt;
    return command.call(
      this.redis,
      k.knownNetworks,
      k.networkCount,
      k.networkLock,
      k.unknownCount,
      k.unknownLock,
      networkDigest,
      backoff.windowMs,
      backoff.limit,
      backoff.unknownNetworksLimit,
      backoff.baseDelayMs,
      backoff.maxDelayMs,
    );
  }

  /** The right password came from this network (SUCCEEDED_SCRIPT). */
  async succeeded(accountDigest: string, networkDigest: string, now: Date): Promise<void> {
    const k = this.keys(accountDigest, networkDigest);
    const command = (this.redis as unknown as { authLoginSucceeded: SucceededCommand }).authLoginSucceeded;
    await command.call(this.redis, k.knownNetworks, k.networkCount, k.networkLock, k.unknownCount, networkDigest, now.getTime(), KNOWN_NETWORKS_KEPT, KNOWN_NETWORKS_TTL_MS);
  }

  /** Every key shares the account's hash tag, so a Redis Cluster keeps them in one slot (the script needs that). */
  private keys(accountDigest: string, networkDigest: string) {
    const base = `${this.prefix}:{${accountDigest}}`;
    return {
      knownNetworks: `${base}:known-networks`,
      networkCount: `${base}:network:${networkDigest}:count`,
      networkLock: `${base}:network:${networkDigest}:lock`,
      unknownCount: `${base}:unknown-networks:count`,
      unknownLock: `${base}:unknown-networks:lock`,
    };
  }
}
