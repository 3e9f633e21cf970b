import { QueueName, type QueueStats, type SystemFigures } from '@sendwell/contracts';
import type { Database } from '@sendwell/db';
import { SystemCounter, SystemDistinct, type Queues, type SystemCounters } from '@sendwell/server-kit';
import { SystemFiguresRepository } from './system-figures.repository.js';
import type { HistoryMaintenanceService } from '../maintenance/history-maintenance.service.js';

/**
 * The whole system's figures for the administrator, none of them a count over a large table:
 * - the 24-hour figures (scans failed, average scan duration, alerts raised, deliveries sent) are the
 *   running counters the writers keep in Redis (`SystemCounters`, hourly buckets: a window of 24 to
 *   25 hours), and domains scanned today a HyperLogLog of the UTC day (about 0.8 % off at most);
 * - scans running now, through the partial index of unfinished scans;
 * - totals of domains and users, exact on small tables and the planner's estimates on large ones
 *   (`SystemFiguresRepository.domainsAndUsers`);
 * - every BullMQ queue's depth;
 * - the scan history's month partitions (the catalogue) and their maintenance's last run.
 */
export class SystemStatsService {
  constructor(
    private readonly db: Database,
    private readonly queues: Queues,
    private readonly counters: SystemCounters,
    private readonly history: HistoryMaintenanceService,
  ) {}

  async read(): Promise<SystemFigures> {
    const figures = new SystemFiguresRepository(this.db);
    const [active, { domains, users }, recent, queues, history] = await Promise.all([
      figures.runningScans(),
      figures.domainsAndUsers(),
      this.recent(),
      this.queueDepths(),
      this.history.figures(),
    ]);
    return {
      scans: {
        active,
        domainsScannedToday: recent.domainsScannedToday,
        avgScanSeconds: recent.completed > 0 ? Math.round((recent.seconds / recent.completed) * 100) / 100 : 0,
        failedLast24h: recent.failed,
      },
      domains,
      users,
      alerts: { raisedLast24h: recent.raised, deliveredLast24h: recent.delivered },
      queues,
      history,
    };
  }

  /** The counters' figures: the last 24 hours' sums and today's distinct domains. */
  private async recent() {
    const c = this.counters;
    const [completed, seconds, failed, raised, delivered, domainsScannedToday] = await Promise.all([
      c.sumLast24h(SystemCounter.ScansCompleted),
      c.sumLast24h(SystemCounter.ScanSeconds),
      c.sumLast24h(SystemCounter.ScansFailed),
      c.sumLast24h(SystemCounter.AlertsRaised),
      c.sumLast24h(SystemCounter.DeliveriesSent),
      c.distinctToday(SystemDistinct.DomainsScanned),
    ]);
    return { completed, seconds, failed: Math.round(failed), raised: Math.round(raised), delivered: Math.round(delivered), domainsScannedToday };
  }

  private async queueDepths(): Promise<QueueStats[]> {
    return Promise.all(
      Object.values(QueueName).map(async (name) => {
        const counts = await this.queues[name].getJobCounts('waiting', 'active', 'delayed', 'failed');
        return { name, waiting: counts.waiting ?? 0, active: counts.active ?? 0, delayed: counts.delayed ?? 0, failed: counts.failed ?? 0 };
      }),
    );
  }
}
