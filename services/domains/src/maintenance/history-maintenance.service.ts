import { historyPartitionsSchema, type HistoryPartitionsFigures } from '@sendwell/contracts';
import type { HistoryPartitions } from '@sendwell/scan-engine';
import { SystemRun, type Logger, type SystemCounters } from '@sendwell/server-kit';

/**
 * The nightly `maintain-history` job: the scan engine's HistoryPartitions run (months created ahead,
 * expired months dropped after carrying each domain's latest scan forward), its outcome kept as the
 * job's last run for the administrator's statistics, a failure included (and rethrown for a retry).
 */
export class HistoryMaintenanceService {
  constructor(
    private readonly partitions: HistoryPartitions,
    private readonly counters: SystemCounters,
    private readonly logger: Logger,
  ) {}

  async run(now = new Date()) {
    try {
      const run = await this.partitions.run(now);
      await this.counters.recordRun(SystemRun.HistoryMaintenance, { ...run, error: null });
      this.logger.info(run, 'scan history maintained');
      return run;
    } catch (err) {
      await this.counters.recordRun(SystemRun.HistoryMaintenance, { error: err instanceof Error ? err.message : String(err) });
      throw err;
    }
  }

  /** The partitions kept and the last run, for the statistics. */
  async figures(): Promise<HistoryPartitionsFigures> {
    const [months, lastRun] = await Promise.all([this.partitions.months(), this.counters.lastRun(SystemRun.HistoryMaintenance)]);
    // A record this version cannot read (written by another) shows as no run rather than failing the page.
    const run = historyPartitionsSchema.shape.lastRun.safeParse(lastRun);
    return { months: months.scans, keptDays: this.partitions.historyDays, lastRun: run.success ? run.data : null };
  }
}
