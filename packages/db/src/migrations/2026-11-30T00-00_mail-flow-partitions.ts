import { sql, type Kysely } from 'kysely';

/*
 * Mail flow's other per-day series by month (issue 28): tls_results_daily (by `day`) and
 * dmarc_failure_reports (by `received_at`, in UTC months) join dmarc_records_daily in monthly range
 * partitions, so that expiry past the longest plan's retention drops whole months instead of deleting
 * rows one by one. The intake creates a month for all three tables at once (its storage/partitions.ts);
 * this migration creates, for the two tables, every month dmarc_records_daily already has or their
 * rows need, and the current month with the two after it, then moves the rows.
 *
 * mail_reports and intake_messages stay plain tables: a row per report or message, and the report's
 * uniqueness across months (the same report twice is stored once) is something a partitioned table
 * cannot keep, since its unique keys must hold the partition key.
 *
 * dmarc_failure_reports' primary key becomes (id, received_at); its ids keep their sequence.
 * Frozen in time: imports no app code.
 */
const MONTHS_AHEAD = 2;

function monthStart(at: Date, plus: number): string {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + plus, 1)).toISOString().slice(0, 10);
}

const partitionOf = (table: string, month: string) => `${table}_${month.slice(0, 4)}_${month.slice(5, 7)}`;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  const { rows } = await sql<{ now: Date }>`select now() as now`.execute(db);
  const now = rows[0]!.now;
  const ahead = Array.from({ length: MONTHS_AHEAD + 1 }, (_, plus) => monthStart(now, plus));
  const { rows: existing } = await sql<{ month: string }>`
    select to_char(to_date(substring(c.relname from '(\\d{4}_\\d{2})$'), 'YYYY_MM'), 'YYYY-MM-DD') as month
    from pg_inherits i join pg_class c on c.oid = i.inhrelid
    where i.inhparent = 'dmarc_records_daily'::regclass and c.relname ~ '^dmarc_records_daily_\\d{4}_\\d{2}$'
    union select to_char(date_trunc('month', day), 'YYYY-MM-DD') from tls_results_daily
    union select to_char(date_trunc('month', received_at at time zone 'UTC'), 'YYYY-MM-DD') from dmarc_failure_reports`.execute(db);
  const months = [...new Set([...existing.map((r) => r.month), ...ahead])].sort();

  await sql`alter table tls_results_daily rename to tls_results_daily_unpartitioned`.execute(db);
  await sql`alter index tls_results_daily_pkey rename to tls_results_daily_unpartitioned_pkey`.execute(db);
  await sql`create table tls_results_daily (
    day date not null,
    domain_id integer not null references domains(id) on delete cascade,
    policy_type text not null,
    policy_domain text not null,
    mx_host text not null,
    result_type text not null,
    sessions bigint not null,
    primary key (domain_id, day, policy_type, policy_domain, mx_host, result_type)
  ) partition by range (day)`.execute(db);

  await sql`alter table dmarc_failure_reports rename to dmarc_failure_reports_unpartitioned`.execute(db);
  await sql`alter index dmarc_failure_reports_pkey rename to dmarc_failure_reports_unpartitioned_pkey`.execute(db);
  await sql`alter index dmarc_failure_reports_domain_idx rename to dmarc_failure_reports_unpartitioned_domain_idx`.execute(db);
  // The ids' sequence outlives the old table (dropping a table drops the sequences it owns).
  await sql`alter sequence dmarc_failure_reports_id_seq owned by none`.execute(db);
  await sql`create table dmarc_failure_reports (
    id bigint not null default nextval('dmarc_failure_reports_id_seq'),
    domain_id integer not null references domains(id) on delete cascade,
    received_at timestamptz not null default now(),
    arrival_date timestamptz,
    source_ip inet,
    auth_failure text,
    report jsonb not null,
    primary key (id, received_at)
  ) partition by range (received_at)`.execute(db);
  await sql`alter sequence dmarc_failure_reports_id_seq owned by dmarc_failure_reports.id`.execute(db);
  await sql`create index dmarc_failure_reports_domain_idx on dmarc_failure_reports (domain_id, received_at desc)`.execute(db);

  for (const month of months) {
    const next = monthStart(new Date(`${month}T00:00:00Z`), 1);
    await sql`create table ${sql.id(partitionOf('tls_results_daily', month))} partition of tls_results_daily
      for values from (${sql.lit(month)}) to (${sql.lit(next)})`.execute(db);
    // UTC months: a bare date bound would be read in the session's time zone.
    await sql`create table ${sql.id(partitionOf('dmarc_failure_reports', month))} partition of dmarc_failure_reports
      for values from (${sql.lit(`${month} 00:00:00+00`)}) to (${sql.lit(`${next} 00:00:00+00`)})`.execute(db);
    await sql`create table if not exists ${sql.id(partitionOf('dmarc_records_daily', month))} partition of dmarc_records_daily
      for values from (${sql.lit(month)}) to (${sql.lit(next)})`.execute(db);
  }

  await sql`insert into tls_results_daily select * from tls_results_daily_unpartitioned`.execute(db);
  await sql`insert into dmarc_failure_reports (id, domain_id, received_at, arrival_date, source_ip, auth_failure, report)
    select id, domain_id, received_at, arrival_date, source_ip, auth_failure, report from dmarc_failure_reports_unpartitioned`.execute(db);
  await sql`drop table tls_results_daily_unpartitioned`.execute(db);
  await sql`drop table dmarc_failure_reports_unpartitioned`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward only.');
}
