import { performance } from 'node:perf_hooks';

/**
 * How long this process's event loop was stalled during an interval: the part of a timed answer that
 * is the scanner's own delay rather than the remote server's.
 *
 * A socket's callback runs only when the loop gets to it, so an answer that arrived while the loop was
 * busy (other scans' callbacks, a GC pause, a TLS handshake's RSA) is timestamped late by up to the
 * length of that stall. A sampler timer firing every `resolutionMs` sees each stall as its own
 * lateness: tick i, due at t(i-1) + resolution, runs at t(i), so the loop was blocked over
 * [due, t(i)]. The lag during [start, end] is the longest such stall overlapping it, clipped to it,
 * including one still under way (no tick since) when asked.
 *
 * perf_hooks.monitorEventLoopDelay is not used: it gives one histogram since its last reset, not the
 * stalls of a given interval, and many probes overlap.
 *
 * The sampler runs only while someone holds it (acquire/release: the timing gate, the SMTP greeting),
 * so an idle scanner pays nothing; its history outlives release for questions asked just after.
 */
export interface LagSource {
  /** The longest stall of the event loop overlapping [start, end] (performance.now() times), in ms. */
  lagDuring(start: number, end: number): number;
  /** Starts sampling (counted: the sampler stops when every holder has released it). */
  acquire(): void;
  release(): void;
}

export interface EventLoopLagOptions {
  /** Sampling period; stalls shorter than this are not resolved. Default 5 ms. */
  resolutionMs?: number;
  /** How long stalls are remembered: longer than any probe lasts. Default 30 s. */
  historyMs?: number;
  /** performance.now() by default; tests inject a clock. */
  clock?: () => number;
  /**
   * Starts calling `tick` every `everyMs` and returns the function stopping it. Default: an unref'd
   * setInterval. Tests pass their own and call tick() by hand.
   */
  schedule?: (tick: () => void, everyMs: number) => () => void;
}

const DEFAULT_RESOLUTION_MS = 5;
const DEFAULT_HISTORY_MS = 30_000;

function intervalSchedule(tick: () => void, everyMs: number): () => void {
  const timer = setInterval(tick, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}

export class EventLoopLag implements LagSource {
  readonly resolutionMs: number;
  private readonly clock: () => number;
  private readonly schedule: (tick: () => void, everyMs: number) => () => void;
  /** Ring buffer of stalls: [due, ran] of each late tick (ticks on time are not stored). */
  private readonly stallStart: Float64Array;
  private readonly stallEnd: Float64Array;
  private stalls = 0;
  private next = 0;
  private readonly historyMs: number;
  private holders = 0;
  private stop: (() => void) | null = null;
  /** When the sampler last ran (or started); null while stopped, so a gap while stopped is no stall. */
  private lastTick: number | null = null;

  constructor(options: EventLoopLagOptions = {}) {
    this.resolutionMs = options.resolutionMs ?? DEFAULT_RESOLUTION_MS;
    this.historyMs = options.historyMs ?? DEFAULT_HISTORY_MS;
    this.clock = options.clock ?? (() => performance.now());
    this.schedule = options.schedule ?? intervalSchedule;
    // Worst case one stall per tick over the history; late ticks are far fewer in practice.
    const capacity = Math.min(16_384, Math.ceil(this.historyMs / this.resolutionMs));
    this.stallStart = new Float64Array(capacity);
    this.stallEnd = new Float64Array(capacity);
  }

  acquire(): void {
    this.holders++;
    if (this.stop) return;
    this.lastTick = this.clock();
    this.stop = this.schedule(() => this.tick(), this.resolutionMs);
  }

  release(): void {
    if (this.holders === 0) return;
    this.holders--;
    if (this.holders > 0 || !this.stop) return;
    // The stall under way right now (if any) is kept before the sampler stops.
    this.tick();
    this.stop();
    this.stop = null;
    this.lastTick = null;
  }

  get running(): boolean {
    return this.stop !== null;
  }

  /** One sample: called by the schedule every resolutionMs. */
  tick(): void {
    if (this.lastTick === null) return;
    const now = this.clock();
    const due = this.lastTick + this.resolutionMs;
    this.lastTick = now;
    if (now <= due) return;
    const capacity = this.stallStart.length;
    this.stallStart[this.next] = due;
    this.stallEnd[this.next] = now;
    this.next = (this.next + 1) % capacity;
    this.stalls = Math.min(this.stalls + 1, capacity);
  }

  lagDuring(start: number, end: number): number {
    if (!(end >= start)) return 0;
    let worst = 0;
    const overlap = (from: number, to: number): void => {
      const length = Math.min(to, end) - Math.max(from, start);
      if (length > worst) worst = length;
    };
    // A stall under way: the loop has not come back to the sampler since it was due.
    if (this.lastTick !== null) {
      const due = this.lastTick + this.resolutionMs;
      const now = this.clock();
      if (now > due) overlap(due, now);
    }
    const capacity = this.stallStart.length;
    const oldest = this.clock() - this.historyMs;
    for (let k = 1; k <= this.stalls; k++) {
      const i = (this.next - k + capacity) % capacity;
      const to = this.stallEnd[i] as number;
      if (to < start || to < oldest) break; // newest first: everything older ended before start
      overlap(this.stallStart[i] as number, to);
    }
    return Math.max(0, worst);
  }
}

let shared: EventLoopLag | undefined;

/** The process-wide monitor every timing probe uses. */
export function eventLoopLag(): EventLoopLag {
  shared ??= new EventLoopLag();
  return shared;
}
