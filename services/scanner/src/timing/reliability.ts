/**
 * Whether a time measured by this process can be held against the remote side, given how long the
 * process's own event loop was stalled while it was measured (loop-lag.ts).
 */
export interface TimingPolicy {
  /** The boundaries the time is graded by, ascending (DNS: 100 and 300 ms; the SMTP greeting: 10 s). */
  edgesMs: readonly number[];
  /** A lag up to this is ordinary jitter at the sampler's resolution: ignored. */
  noiseMs: number;
  /** A lag above this leaves the figure itself too far off to show, whatever the grade. */
  maxLagMs: number;
}

/** How many boundaries the time is above: equal bands, equal grade. */
function band(ms: number, edges: readonly number[]): number {
  let above = 0;
  for (const edge of edges) if (ms > edge) above++;
  return above;
}

/**
 * A time is reliable when the lag is negligible, or moderate and unable to change the grade: at most
 * `lagMs` of it can be the scanner's own delay, so the server's own time lies in
 * [measured − lag, measured], and both ends must fall in the same band.
 */
export function timingReliable(measuredMs: number, lagMs: number, policy: TimingPolicy): boolean {
  if (lagMs <= policy.noiseMs) return true;
  if (lagMs > policy.maxLagMs) return false;
  return band(measuredMs, policy.edgesMs) === band(Math.max(0, measuredMs - lagMs), policy.edgesMs);
}
