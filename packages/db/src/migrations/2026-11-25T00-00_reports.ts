import { sql, type Kysely } from 'kysely';

/*
 * Reports (issue 15).
 * - reports.period: the automated report's period ('weekly:2026-W48', 'fortnightly:…', 'monthly:2026-11');
 *   one automated report per domain and period, so a schedule that runs twice makes one report.
 * - reports.mailed_at: the automated report's mail went out (a retried job does not mail again).
 * - report_documents: the built document (gzip JSON) and its PDF, out of the hot `reports` row, so the
 *   listing reads small rows only.
 * Frozen in time: imports no app code.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table reports
    add column period text,
    add column mailed_at timestamptz,
    add column updated_at timestamptz not null default now()`.execute(db);
  await sql`create unique index reports_domain_period_key on reports (domain_id, period) where period is not null`.execute(db);
  await sql`create table report_documents (
    report_id integer primary key references reports(id) on delete cascade,
    document bytea not null,
    pdf bytea,
    created_at timestamptz not null default now()
  )`.execute(db);
}
