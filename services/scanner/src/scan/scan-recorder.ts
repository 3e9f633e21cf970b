import { features, isPlanType, planRules, type CheckType } from '@sendwell/contracts';
import type { Database } from '@sendwell/db';
import { certificateExpiry, diffSnapshots, dnsChangeAlert, sslExpiringAlert, type NewAlert } from '../alerts/alert-rules.js';
import { AlertRepository } from '../repositories/alert.repository.js';
import { CheckRepository } from '../repositories/check.repository.js';
import { DomainRepository } from '../repositories/domain.repository.js';
import { ReputationRepository } from '../repositories/reputation.repository.js';
import { ScanRepository } from '../repositories/scan.repository.js';
import { withTrend } from '../scoring/reputation.js';
import type { ScanOutcome } from './run-scan.js';

export type RecordResult =
  | { written: true; alertIds: number[]; score: number; nextScanAt: Date | null }
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
 * Alerts are rows with `is_sent` false: their delivery (issue 14) will read them, so no job is queued for them.
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
      const inserted = await new CheckRepository(trx).insertForScan(scanId, domain.id, Object.values(outcome.checks), now);
      const checkIds = new Map(inserted.map((r) => [r.type as CheckType, r.id]));
      const previousSnapshot = await scans.previousSnapshot(domain.id, scanId);

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

      const alerts: Array<NewAlert & { checkId: number | null }> = [];
      // Unpaid plans record no alerts at all; SSL and DNS-change alerts are standard and above.
      if (features.alertsRecorded(domain.planType) && features.sslAndDnsChangeAlerts(domain.planType)) {
        const alertRepo = new AlertRepository(trx);
        const expiry = certificateExpiry(outcome.checks.ssl_certificate, now);
        if (expiry) {
          const ssl = sslExpiringAlert(domain.name, expiry, await alertRepo.sslThresholdsRaised(domain.id, expiry.expiresAt));
          if (ssl) alerts.push({ ...ssl, checkId: checkIds.get('ssl_certificate') ?? null });
        }
        if (previousSnapshot) {
          const change = dnsChangeAlert(domain.name, diffSnapshots(previousSnapshot, outcome.snapshot));
          if (change) alerts.push({ ...change, checkId: checkIds.get('dns_performance') ?? null });
        }
      }
      const alertIds = await new AlertRepository(trx).insert(domain.id, domain.userId, alerts, now);
      return { written: true, alertIds, score: scored.score, nextScanAt: next };
    });
  }
}
