import { describe, expect, it } from 'vitest';
import { EventLoopLag } from '../../src/timing/loop-lag.js';
import { timingReliable, type TimingPolicy } from '../../src/timing/reliability.js';

/** A monitor on a hand-driven clock and schedule: tick() is the sampler timer firing. */
function manual(resolutionMs = 5) {
  let now = 1_000;
  let scheduled = 0;
  let stopped = 0;
  const lag = new EventLoopLag({
    resolutionMs,
    clock: () => now,
    schedule: () => {
      scheduled++;
      return () => void stopped++;
    },
  });
  return {
    lag,
    advance: (ms: number) => void (now += ms),
    /** The timer fires `ms` after the previous tick (on time when ms equals the resolution). */
    tickAfter: (ms: number) => {
      now += ms;
      lag.tick();
    },
    get now() {
      return now;
    },
    get scheduled() {
      return scheduled;
    },
    get stopped() {
      return stopped;
    },
  };
}

describe('EventLoopLag', () => {
  it('sees no lag while the sampler fires on time', () => {
    const m = manual();
    m.lag.acquire();
    const start = m.now;
    for (let i = 0; i < 20; i++) m.tickAfter(5);
    expect(m.lag.lagDuring(start, m.now)).toBe(0);
  });

  it('reports a stall overlapping the interval, clipped to it', () => {
    const m = manual();
    m.lag.acquire(); // t = 1000
    m.tickAfter(5); // 1005, on time
    m.tickAfter(205); // 1210: due at 1010, so the loop was blocked over [1010, 1210]
    m.tickAfter(5);
    expect(m.lag.lagDuring(1_000, 1_220)).toBe(200);
    // Only the part of the stall inside the interval counts.
    expect(m.lag.lagDuring(1_150, 1_220)).toBe(60);
    expect(m.lag.lagDuring(1_000, 1_060)).toBe(50);
    // Before or after it: nothing.
    expect(m.lag.lagDuring(1_000, 1_008)).toBe(0);
    expect(m.lag.lagDuring(1_211, 1_215)).toBe(0);
  });

  it('reports the longest of several stalls, not their sum', () => {
    const m = manual();
    m.lag.acquire();
    m.tickAfter(35); // stall of 30
    m.tickAfter(5);
    m.tickAfter(85); // stall of 80
    m.tickAfter(5);
    m.tickAfter(45); // stall of 40
    expect(m.lag.lagDuring(1_000, m.now)).toBe(80);
  });

  it('counts a stall still under way when asked (the sampler has not run since it was due)', () => {
    const m = manual();
    m.lag.acquire();
    m.tickAfter(5); // 1005
    m.advance(300); // 1305: the loop has been busy since 1010
    expect(m.lag.lagDuring(1_000, 1_305)).toBe(295);
    // Asked about an interval that ended earlier: only the stall up to its end.
    expect(m.lag.lagDuring(1_000, 1_100)).toBe(90);
  });

  it('samples only while held, keeps its history after release, and sees no stall while stopped', () => {
    const m = manual();
    expect(m.lag.running).toBe(false);
    m.lag.acquire();
    m.lag.acquire();
    expect(m.scheduled).toBe(1);
    m.tickAfter(105); // stall of 100 over [1005, 1105]
    m.lag.release();
    expect(m.lag.running).toBe(true);
    m.lag.release();
    expect([m.lag.running, m.stopped]).toEqual([false, 1]);
    expect(m.lag.lagDuring(1_000, 1_105)).toBe(100);
    // A long idle gap with the sampler stopped is no stall.
    m.advance(10_000);
    m.lag.acquire();
    const start = m.now;
    m.tickAfter(5);
    expect(m.lag.lagDuring(start, m.now)).toBe(0);
    expect(m.scheduled).toBe(2);
  });

  it('forgets stalls older than its history', () => {
    let now = 0;
    const lag = new EventLoopLag({ resolutionMs: 5, historyMs: 1_000, clock: () => now, schedule: () => () => undefined });
    lag.acquire();
    now += 505;
    lag.tick(); // stall [5, 505]
    expect(lag.lagDuring(0, 600)).toBe(500);
    for (let i = 0; i < 400; i++) {
      now += 5;
      lag.tick(); // on time, for 2 s
    }
    expect(lag.lagDuring(0, 600)).toBe(0);
  });

  it('measures a real blocked event loop', async () => {
    const lag = new EventLoopLag();
    lag.acquire();
    await new Promise((resolve) => setTimeout(resolve, 20));
    const start = performance.now();
    const until = start + 120;
    while (performance.now() < until) {
      // The loop is blocked: no timer can fire.
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
    const end = performance.now();
    lag.release();
    expect(lag.lagDuring(start, end)).toBeGreaterThanOrEqual(100);
    expect(lag.lagDuring(start, end)).toBeLessThan(200);
  });
});

describe('timingReliable', () => {
  const policy: TimingPolicy = { edgesMs: [100, 300], noiseMs: 10, maxLagMs: 50 };

  it('keeps a time measured with negligible lag, whatever its grade', () => {
    expect(timingReliable(101, 10, policy)).toBe(true);
    expect(timingReliable(450, 0, policy)).toBe(true);
  });

  it('keeps a time the lag could not move into another grade', () => {
    expect(timingReliable(60, 40, policy)).toBe(true); // 20–60 ms: Excellent either way
    expect(timingReliable(250, 45, policy)).toBe(true); // 205–250: Fair either way
  });

  it('rejects a time the lag could have pushed over a boundary', () => {
    expect(timingReliable(120, 30, policy)).toBe(false); // 90–120: Excellent or Fair
    expect(timingReliable(310, 20, policy)).toBe(false); // 290–310: Fair or Poor
  });

  it('rejects any time measured while the lag exceeded the limit', () => {
    expect(timingReliable(20, 51, policy)).toBe(false);
    expect(timingReliable(900, 300, policy)).toBe(false);
  });
});
