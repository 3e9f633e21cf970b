import { checkTypes, paidPlans, type DnsSnapshot } from '@sendwell/contracts';
import type { Database } from '@sendwell/db';
import { ScanResults } from '@sendwell/scan-engine';
import type { CheckResult } from '../checks/types.js';
import type { ScanChecks } from '../scoring/reputation.js';

export interface LatestScan {
  domainId: number;
  domainName: string;
  userId: number;
  status: string;
  scanId: string;
  snapshot: DnsSnapshot;
}

const BATCH = 500;

/** What the daily reputation reads: active paid domains with their latest completed scan and its checks. */
export class DailyReputationRepository {
  constructor(private readonly db: Database) {}

  /** The next batch of active paid domains, each with its latest completed scan that has a snapshot. */
  async latestScans(afterId: number): Promise<LatestScan[]> {
    const rows = await this.db
      .selectFrom('domains')
      .innerJoin('users', 'users.id', 'domains.userId')
      .innerJoinLateral(
        (eb) =>
          eb
            .selectFrom('scans')
            .select(['scans.id as scanId'])
            .whereRef('scans.domainId', '=', 'domains.id')
            .where('scans.status', '=', 'completed')
            .where('scans.dnsSnapshotId', 'is not', null)
            .orderBy('scans.completedAt', 'desc')
            .limit(1)
            .as('latest'),
        (join) => join.onTrue(),
      )
      .select(['domains.id as domainId', 'domains.name as domainName', 'domains.userId', 'domains.status', 'latest.scanId'])
      .where('domains.isDeleted', '=', false)
      .where('users.planType', 'in', [...paidPlans])
      .where('domains.id', '>', afterId)
      .orderBy('domains.id')
      .limit(BATCH)
      .execute();
    const snapshots = await new ScanResults(this.db).snapshotsOf(rows.map((r) => r.scanId));
    return rows.flatMap((r) => {
      const snapshot = snapshots.get(r.scanId);
      return snapshot ? [{ ...r, snapshot }] : [];
    });
  }

  async checksOf(scanIds: string[]): Promise<Map<string, ScanChecks>> {
    const byScan = new Map<string, Partial<ScanChecks>>();
    for (const [scanId, rows] of await new ScanResults(this.db).checksOfScans(scanIds)) {
      const checks: Partial<ScanChecks> = {};
      for (const r of rows) {
        const details = (r.details ?? {}) as CheckResult['details'];
        checks[r.type] = {
          type: r.type,
          status: r.status,
          value: r.value,
          message: r.message ?? '',
          recommendation: r.recommendation,
          details: { ...details, findings: Array.isArray(details.findings) ? details.findings : [] },
        };
      }
      byScan.set(scanId, checks);
    }
    // A scan missing a check type (written before that check existed) is skipped rather than scored wrong.
    const complete = new Map<string, ScanChecks>();
    for (const [scanId, checks] of byScan) if (checkTypes.every((type) => type in checks)) complete.set(scanId, checks as ScanChecks);
    return complete;
  }
}
