import { describe, expect, it } from 'vitest';
import { PoolStats, SLOW_QUERY_MS } from './pool-stats.js';

const pool = { totalCount: 4, idleCount: 1, waitingCount: 2 } as never;

describe('PoolStats', () => {
  it('reads the pool counters and the last 15 minutes of statements', () => {
    const stats = new PoolStats(pool, 10);
    const t0 = Date.UTC(2026, 10, 25, 10, 0, 0);
    stats.record(1_000, t0 - 20 * 60_000); // outside the window by the time it is read
    stats.record(2, t0);
    stats.record(4, t0 + 30_000);
    stats.record(SLOW_QUERY_MS, t0 + 5 * 60_000);
    expect(stats.read(t0 + 5 * 60_000)).toEqual({
      pool: { total: 4, idle: 1, waiting: 2, max: 10 },
      queries: { count: 3, avgMs: Math.round(((2 + 4 + SLOW_QUERY_MS) / 3) * 100) / 100, slow: 1 },
    });
    expect(stats.read(t0 + 30 * 60_000).queries).toEqual({ count: 0, avgMs: 0, slow: 0 });
  });
});
