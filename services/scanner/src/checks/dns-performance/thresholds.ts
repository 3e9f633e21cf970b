/** Slowest authoritative answer up to this is Excellent (`success`). */
export const EXCELLENT_MAX_MS = 100;
/** Slowest answer up to this is Fair (`warning`); above it, Poor (`error`). */
export const FAIR_MAX_MS = 300;

/**
 * The scanner's own event-loop lag during a timed answer (src/timing/): up to TIMING_NOISE_MS it is
 * jitter (two periods of the lag sampler); above TIMING_MAX_LAG_MS (half the Excellent bound) the
 * figure is too far off to show; in between, the time stands when taking the lag off it would not
 * change its grade. Otherwise it is measured again (four attempts at most), then reported as unreliable.
 */
export const TIMING_NOISE_MS = 10;
export const TIMING_MAX_LAG_MS = 50;
