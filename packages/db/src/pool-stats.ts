import type pg from 'pg';

/** A statement this slow or slower counts as slow in the administrator's statistics. */
export const SLOW_QUERY_MS = 250;
/** Query figures cover this many recent minutes, one bucket a minute. */
const WINDOW_MINUTES = 15;

interface Bucket {
  minute: number;
  count: number;
  totalMs: number;
  slow: number;
}

export interface DatabaseStats {
  pool: { total: number; idle: number; waiting: number; max: number };
  /** Statements of the last 15 minutes: how many, their mean time and how many took SLOW_QUERY_MS or more. */
  queries: { count: number; avgMs: number; slow: number };
}

/**
 * What one process's pool is doing, for the administrator's statistics: the pool's own counters, and
 * the time of every statement Kysely ran (its `log` hook), in one-minute buckets so the figures are
 * recent without keeping each statement.
 */
export class PoolStats {
  private readonly buckets: Bucket[] = [];

  constructor(
    private readonly pool: pg.Pool,
    private readonly max: number,
  ) {}

  record(durationMs: number, now = Date.now()): void {
    const minute = Math.floor(now / 60_000);
    let bucket = this.buckets[this.buckets.length - 1];
    if (!bucket || bucket.minute !== minute) {
      bucket = { minute, count: 0, totalMs: 0, slow: 0 };
      this.buckets.push(bucket);
      while (this.buckets.length > WINDOW_MINUTES) this.buckets.shift();
    }
    bucket.count += 1;
    bucket.totalMs += durationMs;
    if (durationMs >= SLOW_QUERY_MS) bucket.slow += 1;
  }

  read(now = Date.now()): DatabaseStats {
    const since = Math.floor(now / 60_000) - WINDOW_MINUTES + 1;
    const recent = this.buckets.filter((b) => b.minute >= since);
    const count = recent.reduce((n, b) => n + b.count, 0);
    const totalMs = recent.reduce((n, b) => n + b.totalMs, 0);
    return {
      pool: { total: this.pool.totalCount, idle: this.pool.idleCount, waiting: this.pool.waitingCount, max: this.max },
      queries: { count, avgMs: count === 0 ? 0 : Math.round((totalMs / count) * 100) / 100, slow: recent.reduce((n, b) => n + b.slow, 0) },
    };
  }
}
