/** Slowest authoritative answer up to this is Excellent (`success`). */
export const EXCELLENT_MAX_MS = 100;
/** Slowest answer up to this is Fair (`warning`); above it, Poor (`error`). */
export const FAIR_MAX_MS = 300;
