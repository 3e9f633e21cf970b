import { generateReportJobId, JobName, planRules, reportCadence, reportPeriod, type PlanType } from '@sendwell/contracts';
import { sql, type Database } from '@sendwell/db';
import type { Logger, Queues } from '@sendwell/server-kit';
import type { NewReport, ReportRepository } from '../repositories/report.repository.js';

/** A pending report whose job has not started by then is queued again (its job was lost). */
export const STALE_PENDING_MS = 10 * 60_000;

export interface ScheduleOutcome {
  created: number;
  /** Users at their stored-report quota, whose automated reports were skipped this run. */
  atQuota: number;
  requeued: number;
}

/**
 * The automated reports' schedule, run hourly: for every active domain (with a completed scan) of a
 * user whose plan has a cadence, one report per period, inserted under the period's unique key, so
 * running twice in a period, or on two processes at once, makes one. Then every pending report
 * whose job was lost is queued again (job ids make a second add of a live job a no-op).
 */
export class AutomatedReports {
  constructor(
    private readonly db: Database,
    private readonly reports: ReportRepository,
    private readonly queues: Queues,
    private readonly logger: Logger,
  ) {}

  async run(now = new Date()): Promise<ScheduleOutcome> {
    const plans = (Object.keys(planRules) as PlanType[]).filter((p) => planRules[p].automatedReports !== null);
    const domains = await this.db
      .selectFrom('domains as d')
      .innerJoin('users as u', 'u.id', 'd.userId')
      .select(['d.id', 'd.name', 'd.userId', 'u.planType'])
      .where('d.isDeleted', '=', false)
      .where('u.planType', 'in', plans)
      .where(sql<boolean>`exists (select 1 from scans s where s.domain_id = d.id and s.status = 'completed')`)
      .orderBy('d.userId')
      .orderBy('d.id')
      .execute();

    const byUser = new Map<number, { plan: string; reports: NewReport[] }>();
    for (const d of domains) {
      const cadence = reportCadence(d.planType);
      if (!cadence) continue;
      const entry = byUser.get(d.userId) ?? { plan: d.planType, reports: [] };
      entry.reports.push({
        userId: d.userId,
        domainId: d.id,
        type: 'automated',
        period: reportPeriod(cadence, now).key,
        data: { domainName: d.name, summary: `Automated ${cadence} report for ${d.name}, being generated.`, score: null },
      });
      byUser.set(d.userId, entry);
    }

    let created = 0;
    let atQuota = 0;
    const queued: number[] = [];
    for (const [userId, { plan, reports }] of byUser) {
      const quota = planRules[plan as PlanType].reportQuota ?? 0;
      const { inserted, used } = await this.reports.insertWithinQuota(userId, reports, quota);
      if (used >= quota && inserted.length < reports.length) atQuota += 1;
      created += inserted.length;
      queued.push(...inserted.map((r) => r.id));
    }
    const stale = await this.reports.stalePending(new Date(now.getTime() - STALE_PENDING_MS));
    const ids = [...new Set([...queued, ...stale])];
    await this.queues.addBulk(
      JobName.GenerateReport,
      ids.map((reportId) => ({ data: { reportId }, opts: { jobId: generateReportJobId(reportId) } })),
    );
    const outcome = { created, atQuota, requeued: stale.length };
    if (created || atQuota || stale.length) this.logger.info(outcome, 'automated reports scheduled');
    return outcome;
  }
}
