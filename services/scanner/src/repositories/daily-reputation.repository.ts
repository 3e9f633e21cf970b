import { checkTypes, paidPlans, type CheckType, type DnsSnapshot } from '@sendwell/contracts';
import type { Database } from '@sendwell/db';
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
            .select(['scans.id as scanId', 'scans.dnsSnapshot'])
            .whereRef('scans.domainId', '=', 'domains.id')
            .where('scans.status', '=', 'completed')
            .where('scans.dnsSnapshot', 'is not', null)
            .orderBy('scans.completedAt', 'desc')
            .limit(1)
            .as('latest'),
        (join) => join.onTrue(),
      )
      .select(['domains.id as domainId', 'domains.name as domainName', 'domains.userId', 'domains.status', 'latest.scanId', 'latest.dnsSnapshot'])
      .where('domains.isDeleted', '=', false)
      .where('users.planType', 'in', [...paidPlans])
      .where('domains.id', '>', afterId)
      .orderBy('domains.id')
      .limit(BATCH)
      .execute();
    return rows.map((r) => ({ ...r, snapshot: r.dnsSnapshot as DnsSnapshot }));
  }

  async checksOf(scanIds: string[]): Promise<Map<string, ScanChecks>> {
    const rows = await this.db
      .selectFrom('domainChecks')
      .select(['scanId', 'type', 'status', 'value', 'message', 'recommendation', 'details'])
      .where('scanId', 'in', scanIds)
      .execute();
    const byScan = new Map<string, Partial<ScanChecks>>();
    for (const r of rows) {
      const checks = byScan.get(r.scanId) ?? {};
      const details = (r.details ?? {}) as CheckResult['details'];
      checks[r.type as CheckType] = {
        type: r.type as CheckType,
        status: r.status as CheckResult['status'],
        value: r.value,
        message: r.message ?? '',
        recommendation: r.recommendation,
        details: { ...details, findings: Array.isArray(details.findings) ? details.findings : [] },
      };
      byScan.set(r.scanId, checks);
    }
    // A scan missing a check type (written before that check existed) is skipped rather than scored wrong.
    const complete = new Map<string, ScanChecks>();
    for (const [scanId, checks] of byScan) if (checkTypes.every((type) => type in checks)) complete.set(scanId, checks as ScanChecks);
    return complete;
  }
}
