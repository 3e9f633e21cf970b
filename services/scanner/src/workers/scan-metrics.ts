import { collectDefaultMetrics, Counter, Histogram, Registry } from 'prom-client';

/** One registry per scanner instance, so tests (and two instances in one process) never share counters. */
export class ScanMetrics {
  readonly registry = new Registry();
  readonly scansCompleted = new Counter({
    name: 'scanner_scans_completed_total',
    help: 'Scans written, by the overall domain status they concluded',
    labelNames: ['status'] as const,
    registers: [this.registry],
  });
  readonly scansFailed = new Counter({
    name: 'scanner_scans_failed_total',
    help: 'Scan attempts that threw, by whether they will be retried',
    labelNames: ['final'] as const,
    registers: [this.registry],
  });
  readonly scanDuration = new Histogram({
    name: 'scanner_scan_duration_seconds',
    help: 'Time to run every check of one scan (without the database write)',
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 20, 30, 60],
    registers: [this.registry],
  });
  readonly dnsQueriesPerScan = new Histogram({
    name: 'scanner_dns_queries_per_scan',
    help: 'DNS questions sent on the network by one scan (cache hits excluded)',
    buckets: [5, 10, 20, 40, 60, 80, 100, 150, 200, 400],
    registers: [this.registry],
  });
  readonly domainsClaimed = new Counter({
    name: 'scanner_domains_claimed_total',
    help: 'Due domains claimed by the sweeper and queued for a scan',
    registers: [this.registry],
  });

  constructor(collectDefaults = true) {
    this.registry.setDefaultLabels({ service: 'scanner' });
    if (collectDefaults) collectDefaultMetrics({ register: this.registry });
  }
}
