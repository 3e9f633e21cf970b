import { afterEach, describe, expect, it, vi } from 'vitest';
import type { LagSource } from '../../src/timing/loop-lag.js';
import type { TimingPolicy } from '../../src/timing/reliability.js';
import { measureTiming, TimingGate, type TimedAttempt } from '../../src/timing/timing-gate.js';

/** A lag source that reports what the test says, and counts its holders. */
function fakeLag(lags: number[] = []) {
  let holders = 0;
  let maxHolders = 0;
  const asked: Array<[number, number]> = [];
  const source: LagSource = {
    lagDuring: (start, end) => {
      asked.push([start, end]);
      return lags.shift() ?? 0;
    },
    acquire: () => {
      holders++;
      maxHolders = Math.max(maxHolders, holders);
    },
    release: () => void holders--,
  };
  return {
    source,
    asked,
    get holders() {
      return holders;
    },
    get maxHolders() {
      return maxHolders;
    },
  };
}

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

const flush = () => new Promise((resolve) => setImmediate(resolve));

afterEach(() => {
  vi.useRealTimers();
});

describe('TimingGate', () => {
  it('runs at most `limit` probes at once, in arrival order, and samples the loop lag while any runs', async () => {
    const lag = fakeLag();
    const gate = new TimingGate({ limit: 2, lag: lag.source });
    const running: number[] = [];
    const started: number[] = [];
    let peak = 0;
    const releases = Array.from({ length: 5 }, () => deferred<void>());
    const probes = releases.map((release, i) =>
      gate.run(async () => {
        started.push(i);
        running.push(i);
        peak = Math.max(peak, running.length);
        await release.promise;
        running.splice(running.indexOf(i), 1);
        return i;
      }),
    );
    await flush();
    expect(started).toEqual([0, 1]);
    expect([gate.active, gate.waiting]).toEqual([2, 3]);
    releases[1]?.resolve();
    await flush();
    expect(started).toEqual([0, 1, 2]);
    for (const release of releases) release.resolve();
    expect(await Promise.all(probes)).toEqual([0, 1, 2, 3, 4]);
    expect(started).toEqual([0, 1, 2, 3, 4]);
    expect(peak).toBe(2);
    expect([gate.active, gate.waiting, lag.holders, lag.maxHolders]).toEqual([0, 0, 0, 2]);
  });

  it('frees the place of a probe that fails', async () => {
    const gate = new TimingGate({ limit: 1, lag: fakeLag().source });
    await expect(gate.run(() => Promise.reject(new Error('no answer')))).rejects.toThrow('no answer');
    expect(await gate.run(() => Promise.resolve('next'))).toBe('next');
    expect(gate.active).toBe(0);
  });

  it('lets a probe hold its place for holdMs at most: a silent server does not hold the others up', async () => {
    vi.useFakeTimers();
    const lag = fakeLag();
    const gate = new TimingGate({ limit: 1, holdMs: 1_000, lag: lag.source });
    const silent = deferred<string>();
    const first = gate.run(() => silent.promise);
    let secondRan = false;
    const second = gate.run(async () => {
      secondRan = true;
      return 'second';
    });
    await vi.advanceTimersByTimeAsync(999);
    expect(secondRan).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await second).toBe('second');
    // The first is still running, and still sampled.
    expect(lag.holders).toBe(1);
    silent.resolve('first');
    expect(await first).toBe('first');
    expect([gate.active, lag.holders]).toEqual([0, 0]);
  });

  it('admits waiting probes when its limit is raised', async () => {
    const gate = new TimingGate({ limit: 1, lag: fakeLag().source });
    const hold = deferred<void>();
    const first = gate.run(() => hold.promise);
    let secondRan = false;
    const second = gate.run(async () => void (secondRan = true));
    await flush();
    expect(secondRan).toBe(false);
    gate.limit = 2;
    await second;
    expect(secondRan).toBe(true);
    hold.resolve();
    await first;
  });
});

describe('measureTiming', () => {
  const policy: TimingPolicy = { edgesMs: [100, 300], noiseMs: 10, maxLagMs: 50 };
  // No pause between attempts: the fake lag decides.
  const noPause = { pause: () => Promise.resolve() };
  const attempt = (timeMs: number | null, start = 0): TimedAttempt<string> => ({
    result: `answer in ${timeMs}`,
    timeMs,
    span: timeMs === null ? undefined : { start, end: start + timeMs },
  });

  it('keeps a time measured without lag, judged over the socket timestamps', async () => {
    const lag = fakeLag([2]);
    const gate = new TimingGate({ lag: lag.source });
    const measured = await measureTiming(gate, async () => attempt(40, 500), policy, noPause);
    expect(measured).toEqual({ result: 'answer in 40', timeMs: 40, reliable: true, measuredMs: 40, lagMs: 2, attempts: 1 });
    expect(lag.asked).toEqual([[500, 540]]);
  });

  it('measures again when the lag explains the time, and keeps the clean second time', async () => {
    const lag = fakeLag([400, 1]);
    const gate = new TimingGate({ lag: lag.source });
    const times = [430, 30];
    const measured = await measureTiming(gate, async () => attempt(times.shift() ?? null), policy, noPause);
    expect(measured).toMatchObject({ result: 'answer in 30', timeMs: 30, reliable: true, attempts: 2 });
    expect(gate.stats).toEqual({ measurements: 2, remeasured: 1, unreliable: 0 });
  });

  it('keeps measuring, up to four times, until a time is clean', async () => {
    const lag = fakeLag([400, 250, 120, 3]);
    const gate = new TimingGate({ lag: lag.source });
    const times = [430, 280, 150, 35];
    const measured = await measureTiming(gate, async () => attempt(times.shift() ?? null), policy, noPause);
    expect(measured).toEqual({ result: 'answer in 35', timeMs: 35, reliable: true, measuredMs: 35, lagMs: 3, attempts: 4 });
    expect(gate.stats).toEqual({ measurements: 4, remeasured: 1, unreliable: 0 });
  });

  it('reports the time unreliable (null) when every attempt is polluted', async () => {
    const lag = fakeLag([400, 250, 120, 260]);
    const gate = new TimingGate({ lag: lag.source });
    const times = [430, 280, 150, 290];
    const measured = await measureTiming(gate, async () => attempt(times.shift() ?? null), policy, noPause);
    expect(measured).toEqual({ result: 'answer in 290', timeMs: null, reliable: false, measuredMs: 290, lagMs: 260, attempts: 4 });
    expect(gate.stats).toEqual({ measurements: 4, remeasured: 1, unreliable: 1 });
  });

  it('pauses before each repeat, outside the gate', async () => {
    const gate = new TimingGate({ limit: 1, lag: fakeLag([400, 1]).source });
    const times = [430, 30];
    const activeDuringPause: number[] = [];
    const measured = await measureTiming(gate, async () => attempt(times.shift() ?? null), policy, {
      pause: async () => void activeDuringPause.push(gate.active),
    });
    expect(measured).toMatchObject({ timeMs: 30, attempts: 2 });
    expect(activeDuringPause).toEqual([0]);
  });

  it('keeps the first answer (unreliable) when the re-measure gets none', async () => {
    const gate = new TimingGate({ lag: fakeLag([400]).source });
    let calls = 0;
    const measured = await measureTiming(
      gate,
      async () => {
        calls++;
        if (calls === 2) throw new Error('timeout');
        return attempt(430);
      },
      policy,
      noPause,
    );
    expect(measured).toEqual({ result: 'answer in 430', timeMs: null, reliable: false, measuredMs: 430, lagMs: 400, attempts: 2 });
    expect(gate.stats).toEqual({ measurements: 1, remeasured: 1, unreliable: 1 });
  });

  it('has nothing to judge without a time, and passes a failure of the first attempt on', async () => {
    const gate = new TimingGate({ lag: fakeLag().source });
    expect(await measureTiming(gate, async () => attempt(null), policy)).toMatchObject({ timeMs: null, reliable: true, attempts: 1 });
    await expect(measureTiming(gate, () => Promise.reject(new Error('timeout')), policy)).rejects.toThrow('timeout');
  });

  it('judges the lag over the whole call when the attempt has no socket timestamps', async () => {
    const lag = fakeLag([0]);
    const gate = new TimingGate({ lag: lag.source });
    await measureTiming(gate, async () => ({ result: 'x', timeMs: 5 }), policy, noPause);
    const [span] = lag.asked;
    expect(span?.[1]).toBeGreaterThanOrEqual(span?.[0] ?? Infinity);
  });
});
