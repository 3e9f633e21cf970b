import { isPlanType, planRules, reputationTrend } from '@sendwell/contracts';
import type { Database } from '@sendwell/db';
import { AlertStore } from '../alerts/alert-store.js';
import type { NewAlert } from '../alerts/alert-types.js';
import { ResultStore } from '../results/result-store.js';
import { checksOf, ScanResults, snapshotOf, type StoredScan } from '../results/scan-results.js';
import { DomainScanRows } from './domain-scan-rows.js';
import { ReputationRows } from './reputation-rows.js';
import { ScanDayRows } from './scan-day-rows.js';
import type { DecideScanAlerts, PreviousChecks, RecordResult, ScanOutcomeToRecord } from './scan-outcome.js';
import { ScanRows } from './scan-rows.js';

/** The scan interval of the owner's plan; null (not scheduled) for free, one-time and unknown plans. */
export function nextScanAt(plan: string, now: Date): Date | null {
  const interval = isPlanType(plan) ? planRules[plan].scanIntervalMs : null;
  return interval === null ? null : new Date(now.getTime() + interval);
}

/** The previous scan's checks by type, as the alert rules compare them. */
function previousChecksOf(previous: StoredScan): PreviousChecks {
  return Object.fromEntries(checksOf(previous).map((c) => [c.type, { status: c.status, details: c.details as Record<string, unknown> }]));
}

/** A daily reputation point of one domain, scored by the caller against the previous point. */
export interface DailyPoint {
  domainId: number;
  userId: number;
  scanId: string;
  /** The UTC day it stands for (`YYYY-MM-DD`): one point per domain and day. */
  day: string;
  now: Date;
  score: ScanOutcomeToRecord['score'];
  /** The alert the new score raises against the previous one, if any. */
  alert: (previousScore: number | null, score: number) => NewAlert | null;
}

/**
 * Writes a scan's results: checks, scan row, domain status and schedule, reputation, the day's
 * summary and alerts, all
 * in one transaction keyed by the scan id. The scan row is locked first, so a duplicated or retried
 * job either waits and then finds the scan completed (and writes nothing), or is the one that writes.
 * Alerts raised and resolved are returned for the caller to queue their delivery once committed (and
 * the notify queue's sweep finds any whose job was lost).
 */
export class ScanRecorder {
  constructor(
    private readonly db: Database,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  async markRunning(scanId: string): Promise<void> {
    await new ScanRows(this.db).markRunning(scanId);
  }

  async markFailed(scanId: string, error: string): Promise<void> {
    await new ScanRows(this.db).markFailed(scanId, error);
  }

  async record(scanId: string, outcome: ScanOutcomeToRecord, decideAlerts: DecideScanAlerts): Promise<RecordResult> {
    return this.db.transaction().execute(async (trx): Promise<RecordResult> => {
      const scans = new ScanRows(trx);
      const scan = await scans.lockForUpdate(scanId);
      if (!scan) return { written: false, reason: 'missing-scan' };
      if (scan.status === 'completed') return { written: false, reason: 'already-completed' };

      const domains = new DomainScanRows(trx);
      const domain = await domains.lockForScan(scan.domainId);
      if (!domain) return { written: false, reason: 'missing-domain' };
      if (domain.isDeleted) {
        await scans.markFailed(scanId, 'The domain was deleted before the scan finished.');
        return { written: false, reason: 'deleted-domain' };
      }

      const now = this.clock();
      const previousScanId = await scans.previousCompletedId(domain.id, scanId);
      const previous = previousScanId ? ((await new ScanResults(trx).stored([previousScanId])).get(previousScanId) ?? null) : null;
      const checkIds = await new ResultStore(trx).store({ scanId, storedMonth: scan.storedMonth, domainId: domain.id, checks: Object.values(outcome.checks), snapshot: outcome.snapshot, at: now, previous });
      await scans.markCompleted(scanId, outcome.status, now);
      // A domain paused above its plan's limit (after a downgrade) finishes a scan already queued, unscheduled.
      const next = domain.scanPaused ? null : nextScanAt(domain.planType, now);
      await domains.recordScan(domain.id, { status: outcome.status, lastScan: now, nextScanAt: next });

      const reputation = new ReputationRows(trx);
      const previousScore = await reputation.latestScore(domain.id);
      const score = outcome.score.score;
      await reputation.insert({
        domainId: domain.id,
        scanId,
        score,
        factors: outcome.score.factors,
        trend: reputationTrend(score, previousScore),
        previousScore,
        calculatedAt: now,
      });
      await new ScanDayRows(trx).countScan({ domainId: domain.id, scanId, createdAt: scan.createdAt, storedMonth: scan.storedMonth, overallStatus: outcome.status, checks: Object.values(outcome.checks), score });

      const alerts = new AlertStore(trx);
      const decision = decideAlerts({
        domain: domain.name,
        plan: domain.planType,
        previous: previous ? { snapshot: snapshotOf(previous), checks: previousChecksOf(previous) } : null,
        status: { before: domain.status, after: outcome.status },
        score: { before: previousScore, after: score },
        openAlerts: await alerts.openConditions(domain.id),
        now,
      });
      const resolvedAlertIds = await alerts.resolve(decision.resolve, now);
      const raised = await alerts.raise(
        { domainId: domain.id, userId: domain.userId },
        decision.raise.map((a) => ({ ...a, scanId, checkId: a.checkType ? (checkIds.get(a.checkType) ?? null) : null })),
        now,
      );
      const alertIds = raised.filter((id): id is number => id !== null);
      return { written: true, alertIds, resolvedAlertIds, score, nextScanAt: next };
    });
  }

  /**
   * The day's reputation point of a domain and its alert, in one transaction holding the domain row
   * (which orders it with a scan being recorded). Nothing when the day's point is already written.
   */
  async recordDailyPoint(point: DailyPoint): Promise<{ written: boolean; alertId: number | null }> {
    return this.db.transaction().execute(async (trx) => {
      await new DomainScanRows(trx).lockForScan(point.domainId);
      const reputation = new ReputationRows(trx);
      const previousScore = await reputation.latestScore(point.domainId);
      const written = await reputation.insertDaily({
        domainId: point.domainId,
        scanId: point.scanId,
        score: point.score.score,
        factors: point.score.factors,
        trend: reputationTrend(point.score.score, previousScore),
        previousScore,
        calculatedAt: point.now,
        dailyFor: point.day,
      });
      if (!written) return { written: false, alertId: null };
      await new ScanDayRows(trx).setScore(point.domainId, point.now, point.score.score);
      const alert = point.alert(previousScore, point.score.score);
      if (!alert) return { written: true, alertId: null };
      const [alertId] = await new AlertStore(trx).raise({ domainId: point.domainId, userId: point.userId }, [alert], point.now);
      return { written: true, alertId: alertId ?? null };
    });
  }
}
