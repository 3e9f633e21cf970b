import type { GatewayMetrics } from '../metrics.js';

interface Sample {
  at: number;
  total: number;
  errors: number;
}

export interface Traffic {
  requestsTotal: number;
  requestsPerSecond: number;
  errorRate: number;
  p95Ms: number | null;
}

const round = (value: number, places = 2) => Math.round(value * 10 ** places) / 10 ** places;

/**
 * The gateway's traffic from its own Prometheus metrics: request and 5xx rates over the time since
 * the previous reading (the page reads every 30 s), or since the start on the first, and the p95 of
 * answer times from the request histogram's buckets.
 */
export class TrafficReader {
  private previous: Sample;

  constructor(
    private readonly metrics: GatewayMetrics,
    startedAt = Date.now() - process.uptime() * 1000,
  ) {
    this.previous = { at: startedAt, total: 0, errors: 0 };
  }

  async read(now = Date.now()): Promise<Traffic> {
    const counts = (await this.metrics.requests.get()).values;
    const total = counts.reduce((n, v) => n + v.value, 0);
    const errors = counts.filter((v) => String(v.labels.status).startsWith('5')).reduce((n, v) => n + v.value, 0);
    const seconds = Math.max(0.001, (now - this.previous.at) / 1000);
    const requests = total - this.previous.total;
    const failed = errors - this.previous.errors;
    this.previous = { at: now, total, errors };
    return {
      requestsTotal: total,
      requestsPerSecond: round(Math.max(0, requests) / seconds),
      errorRate: requests > 0 ? round((Math.max(0, failed) / requests) * 100) : 0,
      p95Ms: await this.p95(),
    };
  }

  /** The upper bound of the bucket holding the 95th percentile, over every route; null before any request. */
  private async p95(): Promise<number | null> {
    const byBound = new Map<number, number>();
    let count = 0;
    for (const v of (await this.metrics.duration.get()).values) {
      if (v.metricName?.endsWith('_bucket')) {
        const bound = (v.labels as { le?: string | number }).le;
        const le = bound === '+Inf' ? Infinity : Number(bound);
        byBound.set(le, (byBound.get(le) ?? 0) + v.value);
      } else if (v.metricName?.endsWith('_count')) count += v.value;
    }
    if (count === 0) return null;
    const bound = [...byBound.entries()].sort((a, b) => a[0] - b[0]).find(([, cumulative]) => cumulative >= count * 0.95)?.[0];
    return bound === undefined || bound === Infinity ? null : round(bound * 1000);
  }
}
