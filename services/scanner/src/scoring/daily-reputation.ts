/**
 * The daily reputation point (02:00 UTC, part 2 §9 "Recalculated daily"): for every active domain of a
 * paid plan, the score of its latest completed scan under today's scoring rules, written once per
 * domain and day (`daily_for`), with its trend against the domain's previous point. A score that
 * crosses a label boundary (Excellent / Good / Fair / Poor) raises `status_change`. Safe to run twice:
 * the second run of a day finds each point written and skips it.
 */
import { checkTypes, paidPlans, type CheckType } from '@sendwell/contracts';
import { sql, type Database } from '@sendwell/db';
import { alertEventsOf, queueAlertEvents, type Logger, type Queues } from '@sendwell/server-kit';
import { statusChange } from '../alerts/alert-rules.js';
import type { CheckResult } from '../checks/types.js';
import { AlertRepository } from '../repositories/alert.repository.js';
import type { DnsSnapshot } from '@sendwell/contracts';
import { computeReputation, withTrend, type ScanChecks } from './reputation.js';

export interface DailyReputationResult {
  domains: number;
  written: number;
  alerts: number;
}

interface LatestScan {
  domainId: number;
  domainName: string;
  userId: number;
  status: string;
  scanId: string;
  snapshot: DnsSnapshot;
}

const BATCH = 500;

export class DailyReputation {
  constructor(
    private readonly db: Database,
    private readonly queues: Queues,
    private readonly logger: Logger,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  async run(): Promise<DailyReputationResult> {
    const now = this.clock();
    const day = now.toISOString().slice(0, 10);
    const result: DailyReputationResult = { domains: 0, written: 0, alerts: 0 };
    let afterId = 0;
    for (;;) {
      const batch = await this.latestScans(afterId);
      if (batch.length === 0) break;
      afterId = batch[batch.length - 1]!.domainId;
      const checks = await this.checksOf(batch.map((b) => b.scanId));
      for (const scan of batch) {
        const scanChecks = checks.get(scan.scanId);
        if (!scanChecks) continue;
        result.domains++;
        const outcome = await this.writePoint(scan, scanChecks, day, now);
        if (outcome.written) result.written++;
        if (outcome.alertId !== null) {
          result.alerts++;
          await queueAlertEvents(this.queues, alertEventsOf([outcome.alertId], []), this.logger);
        }
      }
    }
    this.logger.info({ ...result, day }, 'daily reputation recalculated');
    return result;
  }

  /** The next batch of active paid domains, each with its latest completed scan that has a snapshot. */
  private async latestScans(afterId: number): Promise<LatestScan[]> {
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

  private async checksOf(scanIds: string[]): Promise<Map<string, ScanChecks>> {
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

  /** One domain's point of the day, in a transaction with its alert; nothing when today's is written. */
  private async writePoint(scan: LatestScan, checks: ScanChecks, day: string, now: Date): Promise<{ written: boolean; alertId: number | null }> {
    return this.db.transaction().execute(async (trx) => {
      // The domain row lock orders this with a scan being recorded for the same domain.
      await trx.selectFrom('domains').select('id').where('id', '=', scan.domainId).forUpdate().executeTakeFirst();
      const previous = await trx
        .selectFrom('domainReputationHistory')
        .select(['score', 'dailyFor'])
        .where('domainId', '=', scan.domainId)
        .orderBy('calculatedAt', 'desc')
        .orderBy('id', 'desc')
        .limit(1)
        .executeTakeFirst();
      const scored = withTrend(computeReputation(checks, scan.snapshot), previous?.score ?? null);
      const inserted = await trx
        .insertInto('domainReputationHistory')
        .values({
          domainId: scan.domainId,
          scanId: scan.scanId,
          score: scored.score,
          factors: JSON.stringify(scored.factors),
          trend: scored.trend,
          previousScore: scored.previousScore,
          calculatedAt: now,
          dailyFor: sql<Date>`${day}::date`,
        })
        .onConflict((oc) => oc.columns(['domainId', 'dailyFor']).where('dailyFor', 'is not', null).doNothing())
        .returning('id')
        .executeTakeFirst();
      if (!inserted) return { written: false, alertId: null };
      const change = statusChange(scan.domainName, { before: scan.status, after: scan.status }, { before: scored.previousScore, after: scored.score });
      if (!change) return { written: true, alertId: null };
      const [alertId] = await new AlertRepository(trx).insert(scan.domainId, scan.userId, [{ ...change, checkId: null }], now);
      return { written: true, alertId: alertId ?? null };
    });
  }
}
