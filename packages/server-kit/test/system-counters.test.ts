import { deleteKeys, freePort, testRedisUrl, uniquePrefix } from '@sendwell/testing';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Logger } from '../src/logger.js';
import { closeRedis, createRedis } from '../src/redis.js';
import { SYSTEM_COUNTER_TTL_SECONDS, SystemCounter, SystemCounters, SystemDistinct, SystemRun } from '../src/system-counters.js';

const prefix = uniquePrefix('counters');
const HOUR_MS = 3_600_000;
// 10:30 UTC: half an hour into its bucket.
const NOW = new Date('2026-11-27T10:30:00Z');
const hour = Math.floor(NOW.getTime() / HOUR_MS);
let redis: Redis;

beforeAll(async () => {
  redis = createRedis(testRedisUrl(), 'client');
  await new Promise((resolve) => redis.once('ready', resolve));
});
afterAll(async () => {
  await closeRedis(redis);
  await deleteKeys(prefix);
});

/** Counters of their own (a prefix per test) read and written at `now`. */
const countersAt = (label: string, now: Date) => new SystemCounters(redis, `${prefix}:${label}`, { clock: () => now });

describe('SystemCounters', () => {
  it('sums the current hour and the 24 before it, and leaves out older buckets', async () => {
    const counters = countersAt('window', NOW);
    await counters.add(SystemCounter.ScansCompleted);
    await counters.add(SystemCounter.ScansCompleted, 2);
    await counters.add(SystemCounter.ScanSeconds, 1.25);
    await counters.add(SystemCounter.ScanSeconds, 2);
    // Written 24 hours ago (the oldest bucket still read) and 25 hours ago (the first one left out).
    await countersAt('window', new Date(NOW.getTime() - 24 * HOUR_MS)).add(SystemCounter.ScansCompleted, 10);
    await redis.set(counters.counterKey(SystemCounter.ScansCompleted, hour - 25), '1000');
    await redis.set(counters.counterKey(SystemCounter.ScansCompleted, hour - 48), '1000');

    expect(await counters.sumLast24h(SystemCounter.ScansCompleted)).toBe(13);
    expect(await counters.sumLast24h(SystemCounter.ScanSeconds)).toBe(3.25);
    expect(await counters.sumLast24h(SystemCounter.ScansFailed)).toBe(0);
    // An hour later, the bucket of 24 hours before has left the window.
    expect(await countersAt('window', new Date(NOW.getTime() + HOUR_MS)).sumLast24h(SystemCounter.ScansCompleted)).toBe(3);
  });

  it('gives every bucket it writes an expiry of about 49 hours', async () => {
    const counters = countersAt('ttl', NOW);
    await counters.record({ [SystemCounter.AlertsRaised]: 4, [SystemCounter.DeliveriesSent]: 1 }, { [SystemDistinct.DomainsScanned]: 7 });
    for (const key of [counters.counterKey(SystemCounter.AlertsRaised, hour), counters.counterKey(SystemCounter.DeliveriesSent, hour), counters.distinctKey(SystemDistinct.DomainsScanned, '2026-11-27')]) {
      const ttl = await redis.ttl(key);
      expect(ttl).toBeGreaterThan(SYSTEM_COUNTER_TTL_SECONDS - 10);
      expect(ttl).toBeLessThanOrEqual(SYSTEM_COUNTER_TTL_SECONDS);
    }
    expect(await counters.sumLast24h(SystemCounter.AlertsRaised)).toBe(4);
  });

  it("keeps a job's last run, stamped, until the next replaces it", async () => {
    const counters = countersAt('runs', NOW);
    expect(await counters.lastRun(SystemRun.HistoryMaintenance)).toBeNull();
    await counters.recordRun(SystemRun.HistoryMaintenance, { dropped: ['2025-09-01'], error: null });
    expect(await counters.lastRun(SystemRun.HistoryMaintenance)).toEqual({ dropped: ['2025-09-01'], error: null, at: NOW.toISOString() });
    await countersAt('runs', new Date(NOW.getTime() + HOUR_MS)).recordRun(SystemRun.HistoryMaintenance, { error: 'boom' });
    expect(await counters.lastRun(SystemRun.HistoryMaintenance)).toEqual({ error: 'boom', at: new Date(NOW.getTime() + HOUR_MS).toISOString() });
    expect(await redis.ttl(counters.runKey(SystemRun.HistoryMaintenance))).toBe(-1);
  });

  it('counts distinct members per UTC day', async () => {
    const counters = countersAt('distinct', NOW);
    for (const member of [1, 2, 3, 2, 1, '3']) await counters.addDistinct(SystemDistinct.DomainsScanned, member);
    expect(await counters.distinctToday(SystemDistinct.DomainsScanned)).toBe(3);
    // Yesterday's set is another key; tomorrow starts from nothing.
    await countersAt('distinct', new Date('2026-11-26T23:59:59Z')).addDistinct(SystemDistinct.DomainsScanned, 99);
    expect(await counters.distinctToday(SystemDistinct.DomainsScanned)).toBe(3);
    expect(await countersAt('distinct', new Date('2026-11-28T00:00:00Z')).distinctToday(SystemDistinct.DomainsScanned)).toBe(0);
  });

  it('counts a thousand distinct members within the HyperLogLog error', async () => {
    const counters = countersAt('many', NOW);
    for (let start = 0; start < 1000; start += 100) {
      await Promise.all(Array.from({ length: 100 }, (_, i) => counters.addDistinct(SystemDistinct.DomainsScanned, start + i)));
    }
    const counted = await counters.distinctToday(SystemDistinct.DomainsScanned);
    expect(Math.abs(counted - 1000)).toBeLessThanOrEqual(30);
  });

  it('never throws when Redis is down, and warns once a minute at most', async () => {
    const warnings: unknown[] = [];
    const logger = { warn: (...args: unknown[]) => warnings.push(args) } as unknown as Logger;
    for (const role of ['producer', 'client', 'worker'] as const) {
      const down = createRedis(`redis://127.0.0.1:${await freePort()}`, role, { retryStrategy: () => 200 });
      down.on('error', () => undefined);
      try {
        const counters = new SystemCounters(down, prefix, { logger, writeTimeoutMs: 300 });
        await expect(counters.add(SystemCounter.ScansFailed)).resolves.toBeUndefined();
        await expect(counters.record({ [SystemCounter.ScansCompleted]: 1, [SystemCounter.ScanSeconds]: 2.5 }, { [SystemDistinct.DomainsScanned]: 1 })).resolves.toBeUndefined();
        await expect(counters.addDistinct(SystemDistinct.DomainsScanned, 2)).resolves.toBeUndefined();
      } finally {
        down.disconnect();
      }
    }
    // One warning per instance (each keeps its own minute).
    expect(warnings).toHaveLength(3);
  });
});
