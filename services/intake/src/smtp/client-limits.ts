import ipaddr from 'ipaddr.js';
import type { Redis } from 'ioredis';

/**
 * The address limits are counted by: an IPv4 address as it is, an IPv6 client by its /64 (one
 * host commonly holds a whole /64, so counting single addresses would let it rotate past the limits).
 */
export function clientKey(remoteAddress: string): string {
  if (!ipaddr.isValid(remoteAddress)) return remoteAddress;
  const ip = ipaddr.process(remoteAddress);
  if (ip.kind() === 'ipv4') return ip.toString();
  return `${ipaddr.IPv6.networkAddressFromCIDR(`${ip.toString()}/64`).toString()}/64`;
}

/** Connections open at once per client key, in this process (each replica behind the balancer counts its own). */
export class ConnectionCounter {
  private readonly open = new Map<string, number>();
  /** Session id → the key it was counted under, so a close is uncounted once and only when it was counted. */
  private readonly sessions = new Map<string, string>();

  constructor(private readonly maxPerClient: number) {}

  /** Counts the session; false when its client already has the most connections allowed (it is not counted then). */
  enter(sessionId: string, key: string): boolean {
    const count = this.open.get(key) ?? 0;
    if (count >= this.maxPerClient) return false;
    this.open.set(key, count + 1);
    this.sessions.set(sessionId, key);
    return true;
  }

  leave(sessionId: string): void {
    const key = this.sessions.get(sessionId);
    if (key === undefined) return;
    this.sessions.delete(sessionId);
    const count = (this.open.get(key) ?? 1) - 1;
    if (count <= 0) this.open.delete(key);
    else this.open.set(key, count);
  }

  count(key: string): number {
    return this.open.get(key) ?? 0;
  }
}

const WINDOW_SECONDS = 60;
/** A Redis that accepts the socket but does not answer must not hold MAIL FROM until the client gives up. */
const COUNT_TIMEOUT_MS = 1_000;

/**
 * Messages per client key per minute, counted in Redis so every intake replica shares the count.
 * A fixed window keyed by the minute: INCR and EXPIRE in one MULTI, the key always expiring.
 */
export class MessageRateLimiter {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly perMinute: number,
  ) {}

  /** True when the client may send one more message now (and counts it). Throws when Redis cannot answer. */
  async take(key: string, now = Date.now()): Promise<boolean> {
    const window = Math.floor(now / (WINDOW_SECONDS * 1000));
    const redisKey = `${this.prefix}:intake-rate:${key}:${window}`;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`rate count not answered within ${COUNT_TIMEOUT_MS} ms`)), COUNT_TIMEOUT_MS);
    });
    const results = await Promise.race([this.redis.multi().incr(redisKey).expire(redisKey, WINDOW_SECONDS * 2).exec(), timeout]).finally(() => clearTimeout(timer));
    const [incr] = results ?? [];
    if (!incr || incr[0]) throw incr?.[0] ?? new Error('rate count not answered');
    return Number(incr[1]) <= this.perMinute;
  }
}
