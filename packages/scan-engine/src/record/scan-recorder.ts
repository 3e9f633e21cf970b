import { isPlanType, planRules, reputationTrend, type CheckType } from '@sendwell/contracts';
import type { Database } from '@sendwell/db';
import { AlertStore } from '../alerts/alert-store.js';
import type { NewAlert } from '../alerts/alert-types.js';
import { CheckRows } from './check-rows.js';
import { DomainScanRows } from './domain-scan-rows.js';
import { ReputationRows } from './reputation-rows.js';
import type { DecideScanAlerts, RecordResult, ScanOutcomeToRecord } from './scan-outcome.js';
import { ScanRows } from './scan-rows.js';

/** The scan interval of the owner's plan; null (not scheduled) for free, one-time and unknown plans. */
export function nextScanAt(plan: string, now: Date): Date | null {
  const interval = isPlanType(plan) ? planRules[plan].scanIntervalMs : null;
  return interval === null ? null : new Date(now.getTime() + interval);
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
 * Writes a scan's results: checks, scan row, domain status and schedule, reputation and alerts, all
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
      const checkRows = new CheckRows(trx);
      const previousScan = await scans.previousCompleted(domain.id, scanId);
      const previousChecks = previousScan ? await checkRows.byTypeForScan(previousScan.id) : null;
      const inserted = await checkRows.insertForScan(scanId, domain.id, Object.values(outcome.checks), now);
      const checkIds = new Map(inserted.map((r) => [r.type as CheckType, r.id]));

      await scans.markCompleted(scanId, outcome.status, outcome.snapshot, now);
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

      const alerts = new AlertStore(trx);
      const decision = decideAlerts({
        domain: domain.name,
        plan: domain.planType,
        previous: previousScan && previousChecks ? { snapshot: previousScan.dnsSnapshot, checks: previousChecks } : null,
        status: { before: domain.status, after: outcome.status },
        score: { before: previousScore, after: score },
        openAlerts: await alerts.openConditions(domain.id),
        now,
      });
      const resolvedAlertIds = await alerts.resolve(decision.resolve, now);
      const raised = await alerts.raise(
        { domainId: domain.id, userId: domain.userId },
        decision.raise.map((a) => ({ ...a, checkId: a.checkType ? (checkIds.get(a.checkType) ?? null) : null })),
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
      const alert = point.alert(previousScore, point.score.score);
      if (!alert) return { written: true, alertId: null };
      const [alertId] = await new AlertStore(trx).raise({ domainId: point.domainId, userId: point.userId }, [alert], point.now);
      return { written: true, alertId: alertId ?? null };
    });
  }
}
