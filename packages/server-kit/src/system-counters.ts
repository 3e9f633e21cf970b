import type { Redis } from 'ioredis';
import type { Logger } from './logger.js';

/**
 * The counters of the administrator's system figures, named once for their writers and their reader.
 * Each is a sum over hourly buckets (`SystemCounters.add`, `sumLast24h`).
 */
export const SystemCounter = {
  /** Scans written as completed (scanner, after the scan's transaction). */
  ScansCompleted: 'scans-completed',
  /** The durations of those scans, in seconds (the average is this over `ScansCompleted`). */
  ScanSeconds: 'scan-seconds',
  /** Scans failed for good (the scanner's final-failure hook). */
  ScansFailed: 'scans-failed',
  /** Alerts raised, by whoever raised them (the scan engine's `queueAlertEvents`, after the alerts' transaction). */
  AlertsRaised: 'alerts-raised',
  /** Alert deliveries marked sent (domains' notify, after the delivery's transaction). */
  DeliveriesSent: 'deliveries-sent',
} as const;
export type SystemCounterName = (typeof SystemCounter)[keyof typeof SystemCounter];

/** The distinct counts of the system figures: a HyperLogLog per UTC day (`addDistinct`, `distinctToday`). */
export const SystemDistinct = {
  /** Domains with a completed scan today (UTC), by domain id. */
  DomainsScanned: 'domains-scanned',
} as const;
export type SystemDistinctName = (typeof SystemDistinct)[keyof typeof SystemDistinct];

/** The maintenance jobs whose last run the statistics show (`recordRun`, `lastRun`). */
export const SystemRun = {
  /** The scan history's partitions created and dropped (domains' maintenance worker). */
  HistoryMaintenance: 'history-maintenance',
} as const;
export type SystemRunName = (typeof SystemRun)[keyof typeof SystemRun];

const HOUR_MS = 3_600_000;
/** Buckets outlive the widest window read (25 hours) by a day: a day's HyperLogLog too. */
export const SYSTEM_COUNTER_TTL_SECONDS = 49 * 3600;
/** Hours summed by `sumLast24h`: the current one and the 24 before it. */
const WINDOW_HOURS = 25;
const WARN_EVERY_MS = 60_000;

export interface SystemCountersOptions {
  /** Where a failed write is reported, at most once a minute. */
  logger?: Logger;
  /** How long a write may wait for Redis before it is given up (a worker connection would wait for ever). */
  writeTimeoutMs?: number;
  clock?: () => Date;
}

/**
 * Running figures kept in Redis so the administrator's statistics never count large tables:
 * - counters in hourly buckets, `<prefix>:counters:<name>:<hour since the epoch>`, each INCRBYFLOAT'd
 *   and given a 49-hour expiry in one MULTI (so no bucket is left without one). `sumLast24h` adds the
 *   current hour's bucket and the 24 before it: the window is 24 to 25 hours wide, depending on how far
 *   into the current hour the read is;
 * - distinct members per UTC day in a HyperLogLog, `<prefix>:distinct:<name>:<YYYY-MM-DD>` (PFADD, same
 *   expiry; PFCOUNT has a standard error of about 0.81 %, and 12 KB at most per key).
 *
 * Writes are best effort and are made by the writers once their transaction committed: a Redis that
 * fails or does not answer within `writeTimeoutMs` loses the increment, logs a warning (at most once a
 * minute) and never throws, as a statistic is not worth failing a scan or a delivery. So the figures
 * are a floor when Redis had trouble, and start from zero on a new (or flushed) Redis. Reads throw.
 */
export class SystemCounters {
  private lastWarning = 0;
  private readonly writeTimeoutMs: number;
  private readonly clock: () => Date;

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly options: SystemCountersOptions = {},
  ) {
    this.writeTimeoutMs = options.writeTimeoutMs ?? 1_000;
    this.clock = options.clock ?? (() => new Date());
  }

  /** The key of `name`'s bucket for the hour `hour` (hours since the epoch). */
  counterKey(name: SystemCounterName, hour: number): string {
    return `${this.prefix}:counters:${name}:${hour}`;
  }

  /** The key of `name`'s HyperLogLog for the UTC day `day` (YYYY-MM-DD). */
  distinctKey(name: SystemDistinctName, day: string): string {
    return `${this.prefix}:distinct:${name}:${day}`;
  }

  /** The key of `name`'s last run: one JSON value, kept until the next run replaces it. */
  runKey(name: SystemRunName): string {
    return `${this.prefix}:runs:${name}`;
  }

  /** Keeps `summary` (plain JSON) as `name`'s last run, stamped with the time. Never throws. */
  async recordRun(name: SystemRunName, summary: Record<string, unknown>): Promise<void> {
    try {
      await withDeadline(this.redis.set(this.runKey(name), JSON.stringify({ ...summary, at: this.clock().toISOString() })), this.writeTimeoutMs);
    } catch (err) {
      this.options.logger?.warn({ err, run: name }, 'could not record the run; the statistics miss it');
    }
  }

  /** `name`'s last run as recorded, or null before the first. */
  async lastRun(name: SystemRunName): Promise<Record<string, unknown> | null> {
    const value = await this.redis.get(this.runKey(name));
    return value === null ? null : (JSON.parse(value) as Record<string, unknown>);
  }

  /** Adds `n` (may be fractional) to the current hour's bucket of `name`. Never throws. */
  add(name: SystemCounterName, n = 1): Promise<void> {
    return this.record({ [name]: n });
  }

  /** Adds `member` to today's (UTC) distinct set of `name`. Never throws. */
  addDistinct(name: SystemDistinctName, member: string | number): Promise<void> {
    return this.record({}, { [name]: member });
  }

  /** Several counters and distinct members in one round trip (one MULTI). Never throws. */
  async record(counts: Partial<Record<SystemCounterName, number>>, distinct: Partial<Record<SystemDistinctName, string | number>> = {}): Promise<void> {
    const now = this.clock();
    const hour = hourOf(now);
    const writes: Array<{ key: string; add: number } | { key: string; member: string }> = [];
    for (const [name, n] of Object.entries(counts) as Array<[SystemCounterName, number | undefined]>) {
      if (n === undefined || n === 0 || !Number.isFinite(n)) continue;
      writes.push({ key: this.counterKey(name, hour), add: n });
    }
    for (const [name, member] of Object.entries(distinct) as Array<[SystemDistinctName, string | number | undefined]>) {
      if (member === undefined) continue;
      writes.push({ key: this.distinctKey(name, dayOf(now)), member: String(member) });
    }
    if (writes.length === 0) return;
    try {
      const multi = this.redis.multi();
      for (const write of writes) {
        // INCRBYFLOAT for every counter: one command whether `n` is whole or not (INCRBY refuses a
        // bucket once it holds a fraction); whole sums stay exact far beyond what a day adds up to.
        if ('add' in write) multi.incrbyfloat(write.key, write.add);
        else multi.pfadd(write.key, write.member);
        multi.expire(write.key, SYSTEM_COUNTER_TTL_SECONDS);
      }
      const replies = await withDeadline(multi.exec(), this.writeTimeoutMs);
      const failed = replies?.find(([err]) => err);
      if (failed) throw failed[0];
    } catch (err) {
      const at = Date.now();
      if (at - this.lastWarning > WARN_EVERY_MS) {
        this.lastWarning = at;
        this.options.logger?.warn({ err, counters: Object.keys(counts), distinct: Object.keys(distinct) }, 'could not update the system counters; the statistics miss this');
      }
    }
  }

  /** The sum of `name` over the current hour and the 24 before it (a window 24 to 25 hours wide). */
  async sumLast24h(name: SystemCounterName): Promise<number> {
    const hour = hourOf(this.clock());
    const keys = Array.from({ length: WINDOW_HOURS }, (_, i) => this.counterKey(name, hour - i));
    const values = await this.redis.mget(keys);
    return values.reduce((sum, value) => sum + (value === null ? 0 : Number(value)), 0);
  }

  /** How many distinct members `name` had today (UTC), within about 0.81 %. */
  distinctToday(name: SystemDistinctName): Promise<number> {
    return this.redis.pfcount(this.distinctKey(name, dayOf(this.clock())));
  }
}

/** Hours since the epoch. */
export function hourOf(at: Date): number {
  return Math.floor(at.getTime() / HOUR_MS);
}

function dayOf(at: Date): string {
  return at.toISOString().slice(0, 10);
}

async function withDeadline<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`redis did not answer within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, deadline]);
  } finally {
    clearTimeout(timer);
  }
}
