/**
 * Reads what the scanner stored for one domain (scans, checks, the daily summary, reputation
 * history, DNS change alerts); the reports service writes none of these tables and sends no DNS query of its own.
 */
import { dnsSnapshotSchema, AlertType, type DnsSnapshot } from '@sendwell/contracts';
import { sql, type Database } from '@sendwell/db';
import { checkStatusesFrom, ScanResults } from '@sendwell/scan-engine';
import type { SourceCheck, SourceDay } from '../model/build-report.js';

export interface SourceDomain {
  id: number;
  userId: number;
  name: string;
  status: string;
  isDeleted: boolean;
}

export class ReportSourceRepository {
  constructor(private readonly db: Database) {}

  domain(domainId: number): Promise<SourceDomain | undefined> {
    return this.db.selectFrom('domains').select(['id', 'userId', 'name', 'status', 'isDeleted']).where('id', '=', domainId).executeTakeFirst();
  }

  /** The user's active domains named by id or name (the generate call's references). */
  async ownedActiveDomains(userId: number, refs: ReadonlyArray<{ id?: number | undefined; name?: string | undefined }>): Promise<SourceDomain[]> {
    const ids = refs.flatMap((r) => (r.id !== undefined ? [r.id] : []));
    const names = refs.flatMap((r) => (r.id === undefined && r.name ? [r.name] : []));
    if (ids.length === 0 && names.length === 0) return [];
    return this.db
      .selectFrom('domains')
      .select(['id', 'userId', 'name', 'status', 'isDeleted'])
      .where('userId', '=', userId)
      .where('isDeleted', '=', false)
      .where((eb) => eb.or([...(ids.length ? [eb('id', 'in', ids)] : []), ...(names.length ? [eb('name', 'in', names)] : [])]))
      .execute();
  }

  async latestScan(domainId: number): Promise<{ id: string; completedAt: Date; trigger: string; snapshot: DnsSnapshot | null } | null> {
    const row = await this.db
      .selectFrom('scans')
      .select(['id', 'completedAt', 'trigger'])
      .where('domainId', '=', domainId)
      .where('status', '=', 'completed')
      .where('completedAt', 'is not', null)
      .orderBy('createdAt', 'desc')
      .limit(1)
      .executeTakeFirst();
    if (!row?.completedAt) return null;
    const snapshot = dnsSnapshotSchema.safeParse(await new ScanResults(this.db).snapshotOfScan(row.id));
    return { id: row.id, completedAt: row.completedAt, trigger: row.trigger, snapshot: snapshot.success ? snapshot.data : null };
  }

  checksOfScan(scanId: string): Promise<SourceCheck[]> {
    return new ScanResults(this.db).checksOfScan(scanId);
  }

  latestReputation(domainId: number) {
    return this.db
      .selectFrom('domainReputationHistory')
      .select(['score', 'trend', 'previousScore', 'factors'])
      .where('domainId', '=', domainId)
      .orderBy('calculatedAt', 'desc')
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
  }

  /**
   * One point per UTC day since `since`'s day: the day's last completed scan (its status and check
   * statuses) and the day's last score, from the daily summary the scan engine keeps (`scan_days`),
   * so 90 days are 90 rows however often the domain is scanned. A day whose only score is the daily
   * recalculation (no scan that day) takes it from its daily point.
   */
  async days(domainId: number, since: Date): Promise<{ days: SourceDay[]; scans: number }> {
    const sinceDay = sql`(${since}::timestamptz at time zone 'UTC')::date`;
    const scanDays = await sql<{ day: string; scans: number; overallStatus: string | null; checks: string[]; score: number | null }>`
      select to_char(day, 'YYYY-MM-DD') as day, scans, overall_status, checks, score
      from scan_days where domain_id = ${domainId} and day >= ${sinceDay}
      order by day`.execute(this.db);
    const dailyPoints = await sql<{ day: string; score: number }>`
      select to_char(daily_for, 'YYYY-MM-DD') as day, score
      from domain_reputation_history
      where domain_id = ${domainId} and daily_for is not null and daily_for >= ${sinceDay}`.execute(this.db);
    const days = new Map<string, SourceDay>();
    let scans = 0;
    for (const r of scanDays.rows) {
      scans += r.scans;
      days.set(r.day, { day: r.day, score: r.score, status: r.overallStatus, checks: checkStatusesFrom(r.checks) });
    }
    for (const r of dailyPoints.rows) if (!days.has(r.day)) days.set(r.day, { day: r.day, score: r.score, status: null, checks: {} });
    return { days: [...days.values()].sort((a, b) => a.day.localeCompare(b.day)), scans };
  }

  /** The semantic DNS differences the scanner raised as alerts in the window. */
  async dnsChanges(domainId: number, since: Date): Promise<Array<{ at: Date; changes: unknown }>> {
    const rows = await this.db
      .selectFrom('domainAlerts')
      .select(['createdAt', 'details'])
      .where('domainId', '=', domainId)
      .where('type', '=', AlertType.DnsChange)
      .where('createdAt', '>=', since)
      .orderBy('createdAt', 'asc')
      .limit(500)
      .execute();
    return rows.map((r) => ({ at: r.createdAt, changes: (r.details as { changes?: unknown } | null)?.changes }));
  }
}
