import { describe, expect, it } from 'vitest';
import { RestartPolicy } from './restart-policy.js';

const options = { initialDelayMs: 500, maxDelayMs: 4_000, stableAfterMs: 30_000, maxCrashes: 5, crashWindowMs: 60_000 };

describe('RestartPolicy', () => {
  it('doubles the delay for crashes in a row, up to the cap', () => {
    const policy = new RestartPolicy({ ...options, maxCrashes: 100 });
    const delays = [];
    // Each process lives 1 s and the crashes are 20 s apart, so the window never fills.
    for (let i = 0; i < 6; i++) {
      const now = i * 20_000;
      const decision = policy.onExit(now - 1_000, now);
      delays.push(decision.kind === 'restart' ? decision.delayMs : null);
    }
    expect(delays).toEqual([500, 1_000, 2_000, 4_000, 4_000, 4_000]);
  });

  it('starts the delays again after a process stayed up', () => {
    const policy = new RestartPolicy(options);
    expect(policy.onExit(0, 100)).toMatchObject({ kind: 'restart', delayMs: 500 });
    expect(policy.onExit(600, 700)).toMatchObject({ kind: 'restart', delayMs: 1_000 });
    // Up for 30 s this time: the next crash is a first crash again.
    expect(policy.onExit(1_700, 31_700)).toMatchObject({ kind: 'restart', delayMs: 500 });
  });

  it('gives up at the fifth crash within a minute, and not when they are spread out', () => {
    const fast = new RestartPolicy(options);
    const decisions = [0, 1, 2, 3, 4].map((i) => fast.onExit(i * 1_000, i * 1_000 + 500).kind);
    expect(decisions).toEqual(['restart', 'restart', 'restart', 'restart', 'give-up']);

    const slow = new RestartPolicy(options);
    // Five crashes, but 61 s apart in total: the first has left the window when the fifth comes.
    const spread = [0, 15_000, 30_000, 45_000, 61_000].map((t) => slow.onExit(t - 100, t).kind);
    expect(spread).toEqual(['restart', 'restart', 'restart', 'restart', 'restart']);
  });
});
