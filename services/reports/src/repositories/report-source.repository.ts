/**
 * Reads what the scanner stored for one domain (scans, checks, reputation history, DNS change
 * alerts); the reports service writes none of these tables and sends no DNS query of its own.
 */
import { dnsSnapshotSchema, AlertType, type DnsSnapshot } from '@sendwell/contracts';
import { sql, type Database } from '@sendwell/db';
import { ScanResults } from '@sendwell/scan-engine';
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
   * One point per day since `since`: the day's last completed scan (its status and check statuses)
   * and the day's last reputation score. Two statements over the (domain_id, created_at) and
   * (domain_id, calculated_at) indexes, however many scans the window holds.
   */
  async days(domainId: number, since: Date): Promise<{ days: SourceDay[]; scans: number }> {
    const scanDays = await sql<{ day: string; overallStatus: string | null; checks: Record<string, string> | null; scans: string }>`
      with window_scans as (
        select id, completed_at, overall_status, check_result_ids, stored_month from scans
        where domain_id = ${domainId} and status = 'completed' and completed_at is not null and created_at >= ${since}
      ), last_of_day as (
        select distinct on ((completed_at at time zone 'UTC')::date)
          id, to_char((completed_at at time zone 'UTC')::date, 'YYYY-MM-DD') as day, overall_status, check_result_ids, stored_month
        from window_scans
        order by (completed_at at time zone 'UTC')::date, completed_at desc
      )
      select d.day, d.overall_status,
        (select jsonb_object_agg(r.type, r.status) from check_results r where r.id = any(d.check_result_ids) and r.stored_month = d.stored_month) as checks,
        (select count(*) from window_scans) as scans
      from last_of_day d order by d.day`.execute(this.db);
    const scores = await sql<{ day: string; score: number }>`
      select distinct on ((calculated_at at time zone 'UTC')::date)
        to_char((calculated_at at time zone 'UTC')::date, 'YYYY-MM-DD') as day, score
      from domain_reputation_history
      where domain_id = ${domainId} and calculated_at >= ${since}
      order by (calculated_at at time zone 'UTC')::date, calculated_at desc, id desc`.execute(this.db);
    const scoreByDay = new Map(scores.rows.map((r) => [r.day, r.score]));
    const days = new Map<string, SourceDay>();
    for (const r of scanDays.rows) days.set(r.day, { day: r.day, score: scoreByDay.get(r.day) ?? null, status: r.overallStatus, checks: r.checks ?? {} });
    // A daily recalculation without a scan that day still draws its score.
    for (const [day, score] of scoreByDay) if (!days.has(day)) days.set(day, { day, score, status: null, checks: {} });
    return { days: [...days.values()].sort((a, b) => a.day.localeCompare(b.day)), scans: Number(scanDays.rows[0]?.scans ?? 0) };
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
