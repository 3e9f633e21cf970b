import { isPlanType, planRules, type CheckType } from '@sendwell/contracts';
import type { Database } from '@sendwell/db';
import { decideAlerts } from '../alerts/alert-rules.js';
import { AlertRepository } from '../repositories/alert.repository.js';
import { CheckRepository } from '../repositories/check.repository.js';
import { DomainRepository } from '../repositories/domain.repository.js';
import { ReputationRepository } from '../repositories/reputation.repository.js';
import { ScanRepository } from '../repositories/scan.repository.js';
import { withTrend } from '../scoring/reputation.js';
import type { ScanOutcome } from './run-scan.js';

export type RecordResult =
  | { written: true; alertIds: number[]; resolvedAlertIds: number[]; score: number; nextScanAt: Date | null }
  | { written: false; reason: 'missing-scan' | 'already-completed' | 'missing-domain' | 'deleted-domain' };

/** The scan interval of the owner's plan; null (not scheduled) for free, one-time and unknown plans. */
export function nextScanAt(plan: string, now: Date): Date | null {
  const interval = isPlanType(plan) ? planRules[plan].scanIntervalMs : null;
  return interval === null ? null : new Date(now.getTime() + interval);
}

/**
 * Writes a finished scan: checks, scan row, domain status and schedule, reputation and alerts, all
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
    await new ScanRepository(this.db).markRunning(scanId);
  }

  async markFailed(scanId: string, error: string): Promise<void> {
    await new ScanRepository(this.db).markFailed(scanId, error);
  }

  async record(scanId: string, outcome: ScanOutcome): Promise<RecordResult> {
    return this.db.transaction().execute(async (trx): Promise<RecordResult> => {
      const scans = new ScanRepository(trx);
      const scan = await scans.lockForUpdate(scanId);
      if (!scan) return { written: false, reason: 'missing-scan' };
      if (scan.status === 'completed') return { written: false, reason: 'already-completed' };

      const domains = new DomainRepository(trx);
      const domain = await domains.lockForScan(scan.domainId);
      if (!domain) return { written: false, reason: 'missing-domain' };
      if (domain.isDeleted) {
        await scans.markFailed(scanId, 'The domain was deleted before the scan finished.');
        return { written: false, reason: 'deleted-domain' };
      }

      const now = this.clock();
      const checkRepo = new CheckRepository(trx);
      const previousScan = await scans.previousCompleted(domain.id, scanId);
      const previousChecks = previousScan ? await checkRepo.byTypeForScan(previousScan.id) : null;
      const inserted = await checkRepo.insertForScan(scanId, domain.id, Object.values(outcome.checks), now);
      const checkIds = new Map(inserted.map((r) => [r.type as CheckType, r.id]));

      await scans.markCompleted(scanId, outcome.status, outcome.snapshot, now);
      // A domain paused above its plan's limit (after a downgrade) finishes a scan already queued, unscheduled.
      const next = domain.scanPaused ? null : nextScanAt(domain.planType, now);
      await domains.recordScan(domain.id, { status: outcome.status, lastScan: now, nextScanAt: next });

      const reputation = new ReputationRepository(trx);
      const scored = withTrend(outcome.score, await reputation.latestScore(domain.id));
      await reputation.insert({
        domainId: domain.id,
        scanId,
        score: scored.score,
        factors: scored.factors,
        trend: scored.trend,
        previousScore: scored.previousScore,
        calculatedAt: now,
      });

      const alertRepo = new AlertRepository(trx);
      const decision = decideAlerts({
        domain: domain.name,
        plan: domain.planType,
        checks: outcome.checks,
        snapshot: outcome.snapshot,
        previous: previousScan && previousChecks ? { snapshot: previousScan.dnsSnapshot, checks: previousChecks } : null,
        status: { before: domain.status, after: outcome.status },
        score: { before: scored.previousScore, after: scored.score },
        openAlerts: await alertRepo.openConditions(domain.id),
        now,
      });
      const resolvedAlertIds = await alertRepo.resolve(decision.resolve, now);
      const alertIds = await alertRepo.insert(
        domain.id,
        domain.userId,
        decision.raise.map((a) => ({ ...a, checkId: a.checkType ? (checkIds.get(a.checkType) ?? null) : null })),
        now,
      );
      return { written: true, alertIds, resolvedAlertIds, score: scored.score, nextScanAt: next };
    });
  }
}
