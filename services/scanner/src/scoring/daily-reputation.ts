/**
 * The daily reputation point (02:00 UTC, part 2 §9 "Recalculated daily"): for every active domain of a
 * paid plan, the score of its latest completed scan under today's scoring rules, written once per
 * domain and day (`daily_for`), with its trend against the domain's previous point. A score that
 * crosses a label boundary (Excellent / Good / Fair / Poor) raises `status_change`. Safe to run twice:
 * the second run of a day finds each point written and skips it.
 */
import type { Database } from '@sendwell/db';
import type { ScanEngine } from '@sendwell/scan-engine';
import type { Logger } from '@sendwell/server-kit';
import { statusChange } from '../alerts/alert-rules.js';
import { DailyReputationRepository, type LatestScan } from '../repositories/daily-reputation.repository.js';
import { computeReputation, type ScanChecks } from './reputation.js';

export interface DailyReputationResult {
  domains: number;
  written: number;
  alerts: number;
}

export class DailyReputation {
  constructor(
    private readonly db: Database,
    private readonly engine: ScanEngine,
    private readonly logger: Logger,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  async run(): Promise<DailyReputationResult> {
    const now = this.clock();
    const day = now.toISOString().slice(0, 10);
    const result: DailyReputationResult = { domains: 0, written: 0, alerts: 0 };
    const reads = new DailyReputationRepository(this.db);
    let afterId = 0;
    for (;;) {
      const batch = await reads.latestScans(afterId);
      if (batch.length === 0) break;
      afterId = batch[batch.length - 1]!.domainId;
      const checks = await reads.checksOf(batch.map((b) => b.scanId));
      for (const scan of batch) {
        const scanChecks = checks.get(scan.scanId);
        if (!scanChecks) continue;
        result.domains++;
        const outcome = await this.writePoint(scan, scanChecks, day, now);
        if (outcome.written) result.written++;
        if (outcome.alertId !== null) {
          result.alerts++;
          await this.engine.publishAlertEvents([outcome.alertId], [], this.logger);
        }
      }
    }
    this.logger.info({ ...result, day }, 'daily reputation recalculated');
    return result;
  }

  /** One domain's point of the day, with its alert when the score crosses a label boundary; nothing when today's is written. */
  private writePoint(scan: LatestScan, checks: ScanChecks, day: string, now: Date): Promise<{ written: boolean; alertId: number | null }> {
    return this.engine.recorder.recordDailyPoint({
      domainId: scan.domainId,
      userId: scan.userId,
      scanId: scan.scanId,
      day,
      now,
      score: computeReputation(checks, scan.snapshot),
      alert: (previousScore, score) => statusChange(scan.domainName, { before: scan.status, after: scan.status }, { before: previousScore, after: score }),
    });
  }
}
