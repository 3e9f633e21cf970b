import { checkStatusSchema, checkTypeSchema, type CheckStatus, type CheckType } from '@sendwell/contracts';
import { sql, type Executor } from '@sendwell/db';

/** A completed scan as the timeline's daily summary counts it. */
export interface ScanForDay {
  domainId: number;
  scanId: string;
  /** When the scan was created: its UTC day is the row it counts in (as the history lists it). */
  createdAt: Date;
  overallStatus: string;
  checks: ReadonlyArray<{ type: CheckType; status: CheckStatus }>;
  /** The score this scan calculated, or null. */
  score: number | null;
  /** The scan's month partition (`YYYY-MM-01`), the row's too; read from the scan when not given. */
  storedMonth?: string;
}

/** `type=status` of each check, by type: how the summary (and the history's rows) keep a scan's statuses. */
const checkStatusesOf = (checks: ScanForDay['checks']): string[] => checks.map((c) => `${c.type}=${c.status}`).sort();

/** The statuses kept as `type=status` read back, by type; a pair of an unknown type or status is left out. */
export function checkStatusesFrom(pairs: readonly string[]): Partial<Record<CheckType, CheckStatus>> {
  const statuses: Partial<Record<CheckType, CheckStatus>> = {};
  for (const pair of pairs) {
    const [type = '', status = ''] = pair.split('=', 2);
    const t = checkTypeSchema.safeParse(type);
    const s = checkStatusSchema.safeParse(status);
    if (t.success && s.success) statuses[t.data] = s.data;
  }
  return statuses;
}

/**
 * `scan_days`, the timeline's daily summary (migration 2026-11-29T00-00): per domain and UTC day, the
 * scans completed, the day's last scan by creation (id, time, overall status, check statuses) and the
 * day's last score. Kept as each scan is recorded, so a year of the timeline is 365 rows to read.
 * A row is kept in its scans' month partition (the month of the day, but for scans written before the
 * partitions, which share the migration's month) and goes with it.
 */
export class ScanDayRows {
  constructor(private readonly db: Executor) {}

  /**
   * Counts a completed scan into its day. It becomes the day's last scan unless one created later was
   * recorded first; its score is the day's last either way (scores are calculated as scans are recorded).
   */
  async countScan(scan: ScanForDay): Promise<void> {
    const day = sql`(${scan.createdAt}::timestamptz at time zone 'UTC')::date`;
    const month = scan.storedMonth === undefined ? sql`(select stored_month from scans where id = ${scan.scanId}::uuid)` : sql`${scan.storedMonth}::date`;
    await sql`
      insert into scan_days as d (domain_id, day, stored_month, scans, last_scan_id, last_scan_at, overall_status, checks, score)
      values (${scan.domainId}, ${day}, ${month}, 1, ${scan.scanId}::uuid, ${scan.createdAt}, ${scan.overallStatus},
        ${checkStatusesOf(scan.checks)}::text[], ${scan.score})
      on conflict (domain_id, day, stored_month) do update set
        scans = d.scans + 1,
        last_scan_id = case when excluded.last_scan_at >= d.last_scan_at then excluded.last_scan_id else d.last_scan_id end,
        overall_status = case when excluded.last_scan_at >= d.last_scan_at then excluded.overall_status else d.overall_status end,
        checks = case when excluded.last_scan_at >= d.last_scan_at then excluded.checks else d.checks end,
        last_scan_at = greatest(d.last_scan_at, excluded.last_scan_at),
        score = coalesce(excluded.score, d.score)`.execute(this.db);
  }

  /** A score calculated apart from a scan (the daily point) is its day's last score, where the day has a row. */
  async setScore(domainId: number, at: Date, score: number): Promise<void> {
    const day = sql`(${at}::timestamptz at time zone 'UTC')::date`;
    await sql`update scan_days set score = ${score} where domain_id = ${domainId} and day = ${day}`.execute(this.db);
  }
}
