/** When the supervisor restarts a service that exited, and when it stops trying. */
export interface RestartPolicyOptions {
  /** The first restart's delay; each further crash in a row doubles it. */
  initialDelayMs: number;
  maxDelayMs: number;
  /** A process that ran at least this long before exiting starts the delays again from the first. */
  stableAfterMs: number;
  /** This many crashes within `crashWindowMs` means the service cannot start: give up. */
  maxCrashes: number;
  crashWindowMs: number;
}

/** 0.5 s, 1 s, 2 s … 10 s; the delays start again after 30 s up; 5 crashes within 60 s give up. */
export const DEFAULT_RESTART_POLICY: RestartPolicyOptions = {
  initialDelayMs: 500,
  maxDelayMs: 10_000,
  stableAfterMs: 30_000,
  maxCrashes: 5,
  crashWindowMs: 60_000,
};

export type RestartDecision =
  | { kind: 'restart'; delayMs: number; crashesInWindow: number }
  | { kind: 'give-up'; crashesInWindow: number };

/** One service's crash history (pure: the caller passes the clock). */
export class RestartPolicy {
  private crashTimes: number[] = [];
  private crashesInARow = 0;

  constructor(private readonly options: RestartPolicyOptions = DEFAULT_RESTART_POLICY) {}

  /** The process started at `startedAt` exited at `now`: restart it after a delay, or give up. */
  onExit(startedAt: number, now: number): RestartDecision {
    const { initialDelayMs, maxDelayMs, stableAfterMs, maxCrashes, crashWindowMs } = this.options;
    if (now - startedAt >= stableAfterMs) this.crashesInARow = 0;
    this.crashTimes = [...this.crashTimes.filter((t) => now - t < crashWindowMs), now];
    const crashesInWindow = this.crashTimes.length;
    if (crashesInWindow >= maxCrashes) return { kind: 'give-up', crashesInWindow };
    const delayMs = Math.min(maxDelayMs, initialDelayMs * 2 ** this.crashesInARow);
    this.crashesInARow++;
    return { kind: 'restart', delayMs, crashesInWindow };
  }
}
