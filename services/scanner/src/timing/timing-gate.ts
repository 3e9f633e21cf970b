import { performance } from 'node:perf_hooks';
import { eventLoopLag, type LagSource } from './loop-lag.js';
import { timingReliable, type TimingPolicy } from './reliability.js';

/**
 * A process-wide limit on timing probes in flight (the DNS performance check's SOA questions).
 *
 * Why 16: the probes' answers arrive on the timing transport's own UDP socket, and libuv reads at most
 * 32 datagrams from one socket per turn of the event loop. With no more than 16 probes waiting, every
 * answer that has arrived is read (and timestamped) in the next turn, so an answer is never held back
 * behind other answers, only by the loop's own stall, which loop-lag.ts measures.
 *
 * A probe keeps its place until it settles or for `holdMs` at most: a name server that never answers
 * must not hold the others up for the whole DNS timeout (an answer that late is graded Poor anyway,
 * and is still timed and judged).
 */
export interface TimingGateOptions {
  /** Probes in flight at once; default 16 (SCAN_TIMING_PROBES). */
  limit?: number;
  /** Longest a probe holds its place; default 1,000 ms. */
  holdMs?: number;
  /** The loop-lag monitor, kept sampling while a probe runs; default the process-wide one. */
  lag?: LagSource;
}

export const DEFAULT_TIMING_PROBES = 16;
const DEFAULT_HOLD_MS = 1_000;

/** What the gate's probes came to since the process started, for metrics and the benchmark. */
export interface TimingStats {
  /** Timed measurements made (re-measures included). */
  measurements: number;
  /** Measurements repeated because the loop lag could explain the first. */
  remeasured: number;
  /** Times reported unreliable after the re-measure. */
  unreliable: number;
}

export class TimingGate {
  readonly stats: TimingStats = { measurements: 0, remeasured: 0, unreliable: 0 };
  private limitValue: number;
  private readonly holdMs: number;
  readonly lag: LagSource;
  private activeCount = 0;
  private readonly queue: Array<() => void> = [];

  constructor(options: TimingGateOptions = {}) {
    this.limitValue = Math.max(1, options.limit ?? DEFAULT_TIMING_PROBES);
    this.holdMs = options.holdMs ?? DEFAULT_HOLD_MS;
    this.lag = options.lag ?? eventLoopLag();
  }

  get limit(): number {
    return this.limitValue;
  }

  set limit(value: number) {
    this.limitValue = Math.max(1, Math.floor(value));
    this.admit();
  }

  /** Probes holding a place. */
  get active(): number {
    return this.activeCount;
  }

  /** Probes waiting for a place. */
  get waiting(): number {
    return this.queue.length;
  }

  /** Runs `probe` once a place is free, with the loop-lag monitor sampling until it settles. */
  async run<T>(probe: (lag: LagSource) => Promise<T>): Promise<T> {
    await this.enter();
    let held = true;
    const leave = (): void => {
      if (!held) return;
      held = false;
      this.activeCount--;
      this.admit();
    };
    const timer = setTimeout(leave, this.holdMs);
    timer.unref();
    this.lag.acquire();
    try {
      return await probe(this.lag);
    } finally {
      clearTimeout(timer);
      this.lag.release();
      leave();
    }
  }

  private enter(): Promise<void> {
    if (this.activeCount < this.limitValue && this.queue.length === 0) {
      this.activeCount++;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      this.queue.push(() => {
        this.activeCount++;
        resolve();
      });
    });
  }

  private admit(): void {
    while (this.activeCount < this.limitValue) {
      const next = this.queue.shift();
      if (!next) return;
      next();
    }
  }
}

let shared: TimingGate | undefined;

/** The gate every timing probe of this process goes through. */
export function timingGate(): TimingGate {
  shared ??= new TimingGate();
  return shared;
}

/** Sets the process-wide gate's limit (SCAN_TIMING_PROBES), at startup. */
export function configureTimingGate(options: { limit: number }): void {
  timingGate().limit = options.limit;
}

/** One timed attempt: what it returned, and the time measured on the socket. */
export interface TimedAttempt<T> {
  result: T;
  /** The measured time in ms, or null when there was nothing to time (no answer). */
  timeMs: number | null;
  /**
   * performance.now() when the question left and the answer arrived, taken in the socket's callbacks.
   * Without it the lag is judged over the whole call, which can only make a time look less reliable.
   */
  span?: { start: number; end: number } | undefined;
}

export interface Measurement<T> {
  result: T;
  /** The time kept: null when there was none, or when neither attempt could be trusted. */
  timeMs: number | null;
  /** False when the scanner's own stall could explain the time at every attempt: it must not be graded. */
  reliable: boolean;
  /** The time measured by the attempt kept, reliable or not. */
  measuredMs: number | null;
  /** The event-loop lag during the attempt kept. */
  lagMs: number;
  attempts: number;
}

/** Most attempts at one time; each after the first follows a pause, so it meets another moment of the loop. */
export const MAX_TIMING_ATTEMPTS = 4;

export interface MeasureOptions {
  /** Default MAX_TIMING_ATTEMPTS. */
  maxAttempts?: number;
  /** Waited before each repeat, outside the gate; default 10–60 ms at random (tests pass none). */
  pause?: () => Promise<void>;
}

/** A random pause: a repeat right after a stall tends to meet the same burst of work. */
function randomPause(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 10 + Math.random() * 50));
}

/**
 * Measures through the gate; a time the loop lag could explain is measured again after a pause, up to
 * `maxAttempts` times in all, and if none is clean the time is reported unreliable (timeMs null)
 * rather than blamed on the remote side. A repeat that fails outright (an error, or no time) ends the
 * attempts and keeps the last answer that had a time.
 */
export async function measureTiming<T>(
  gate: TimingGate,
  attempt: () => Promise<TimedAttempt<T>>,
  policy: TimingPolicy,
  options: MeasureOptions = {},
): Promise<Measurement<T>> {
  const maxAttempts = Math.max(1, options.maxAttempts ?? MAX_TIMING_ATTEMPTS);
  const pause = options.pause ?? randomPause;
  const once = (): Promise<Measurement<T>> =>
    gate.run(async (lag) => {
      const called = performance.now();
      const outcome = await attempt();
      gate.stats.measurements++;
      if (outcome.timeMs === null) return { result: outcome.result, timeMs: null, reliable: true, measuredMs: null, lagMs: 0, attempts: 1 };
      const span = outcome.span ?? { start: called, end: performance.now() };
      const lagMs = lag.lagDuring(span.start, span.end);
      const reliable = timingReliable(outcome.timeMs, lagMs, policy);
      return { result: outcome.result, timeMs: reliable ? outcome.timeMs : null, reliable, measuredMs: outcome.timeMs, lagMs, attempts: 1 };
    });

  let kept = await once();
  if (kept.reliable) return kept;
  gate.stats.remeasured++;
  let attempts = 1;
  while (attempts < maxAttempts) {
    attempts++;
    await pause();
    let next: Measurement<T>;
    try {
      next = await once();
    } catch {
      break;
    }
    if (next.measuredMs === null) break;
    kept = next;
    if (kept.reliable) return { ...kept, attempts };
  }
  gate.stats.unreliable++;
  return { ...kept, attempts };
}
