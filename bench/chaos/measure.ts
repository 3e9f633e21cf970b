/**
 * What became of a drill's scans, read from the database: per domain of the drill, its scans
 * created since the drill began. A domain is done once it has a completed scan; a domain with more
 * than one completed scan, or a scan recorded twice (see `twice_written`), is a duplicate.
 */
// Kysely's CamelCasePlugin (createDb) renames the snake_case columns of raw results too.
import { sql, type Database } from '@sendwell/db';

export interface ScanOutcome {
  domains: number;
  completed: number;
  /** Domains whose only scans failed for good (nothing queued or running for them any more). */
  failed: number;
  /** Domains still waiting: a scan queued or running, or no scan row yet. */
  pending: number;
  duplicated: number;
  lastCompletedAt: number | null;
}

export async function scanOutcome(db: Database, domainIds: readonly number[], since: Date): Promise<ScanOutcome> {
  const { rows } = await sql<{ completed: number; failed: number; pending: number; duplicated: number; twiceWritten: number; lastCompletedAt: Date | null }>`
    with per_domain as (
      select d.id,
        count(s.id) filter (where s.status = 'completed')::int as completed,
        count(s.id) filter (where s.status = 'failed')::int as failed,
        count(s.id) filter (where s.status in ('queued', 'running'))::int as live,
        max(s.completed_at) filter (where s.status = 'completed') as last_completed_at
      from unnest(${[...domainIds]}::int[]) as d(id)
      left join scans s on s.domain_id = d.id and s.created_at >= ${since}
      group by d.id
    ), drill_scans as (
      select s.id, s.check_result_ids
      from scans s
      where s.domain_id = any(${[...domainIds]}::int[]) and s.created_at >= ${since}
    ), twice_written as (
      -- A scan recorded twice. Its results are stored on change and referenced from the scan row, so
      -- a second recording adds no check rows to count; it shows as a second reputation point of
      -- the scan (each recording writes one; the daily points, daily_for set, are apart), or as a
      -- check type twice among the scan's references.
      select h.scan_id
      from domain_reputation_history h
      join drill_scans s on s.id = h.scan_id
      where h.domain_id = any(${[...domainIds]}::int[]) and h.daily_for is null
      group by h.scan_id
      having count(*) > 1
      union
      select s.id
      from drill_scans s cross join unnest(s.check_result_ids) as ref(id)
      join check_results c on c.id = ref.id
      group by s.id, c.type
      having count(*) > 1
    )
    select
      count(*) filter (where completed > 0)::int as completed,
      count(*) filter (where completed = 0 and failed > 0 and live = 0)::int as failed,
      count(*) filter (where completed = 0 and (live > 0 or failed = 0))::int as pending,
      coalesce(sum(greatest(completed - 1, 0)), 0)::int as duplicated,
      (select count(*) from twice_written)::int as twice_written,
      max(last_completed_at) as last_completed_at
    from per_domain
  `.execute(db);
  const row = rows[0]!;
  return {
    domains: domainIds.length,
    completed: row.completed,
    failed: row.failed,
    pending: row.pending,
    duplicated: row.duplicated + row.twiceWritten,
    lastCompletedAt: row.lastCompletedAt ? new Date(row.lastCompletedAt).getTime() : null,
  };
}

/**
 * Polls until every domain has a completed scan, or none is pending any more, or `timeoutMs` passes;
 * then waits `settleMs` more, so a late second run of a scan shows as a duplicate.
 */
export async function waitForScans(db: Database, domainIds: readonly number[], since: Date, options: { timeoutMs: number; settleMs: number }): Promise<ScanOutcome> {
  const deadline = Date.now() + options.timeoutMs;
  let outcome = await scanOutcome(db, domainIds, since);
  while (outcome.pending > 0 && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 250));
    outcome = await scanOutcome(db, domainIds, since);
  }
  await new Promise((r) => setTimeout(r, options.settleMs));
  return scanOutcome(db, domainIds, since);
}
