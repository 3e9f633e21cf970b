import { sql, type Kysely } from 'kysely';

/*
 * Scan history partitioned by month (issue 28), so that history past the longest plan's window is
 * dropped a month at a time (a catalogue change) instead of deleted row by row.
 *
 * scans, check_results, dns_snapshots and domain_reputation_history are partitioned by range of a
 * new column, stored_month: the first day of the month whose partition holds the row. It is the
 * month the row was written in, except where the history maintenance carried a domain's latest scan
 * (and what it references) forward out of a month about to be dropped: created_at stays the truth
 * of when a scan ran, stored_month only says where it is kept. A scan's results share its month
 * (the result store reuses a stored result only within it), so a month drops whole.
 *
 * What partitioning costs:
 * - a primary key includes the partition key: (id, stored_month). Ids stay unique (one sequence
 *   or random uuids), but nothing can reference them by foreign key any more: the keys from
 *   domain_alerts (scan_id, check_id), domain_reputation_history.scan_id and scans.dns_snapshot_id
 *   go, and their readers take a missing row as gone with its month;
 * - identity columns are not allowed on a partitioned table before Postgres 17: plain sequences;
 * - the daily reputation point is unique per (domain_id, daily_for, stored_month): a day's point is
 *   written once, on the day after (a retry within hours), so in practice still one per domain and day.
 *
 * scan_days (new) is the timeline's daily summary, one row per domain and UTC day with a completed
 * scan: how many scans, the day's last scan (its id, time, overall status and check statuses) and the
 * day's last score. The scan engine keeps it as it records each scan, so the history's timeline reads
 * a year as 365 rows instead of every scan of it. Partitioned the same way (stored_month, the month of
 * the day) and dropped with the rest.
 *
 * Rows already written move to the current month's partition: their results may be shared across
 * months, which only one partition keeps together. They age out with it. No partition is created
 * for the past; the maintenance job (scan engine, HistoryPartitions) creates months ahead and drops
 * expired ones, and this migration creates the current month and the two after it.
 * Frozen in time: imports no app code.
 */
const TABLES = ['scans', 'check_results', 'dns_snapshots', 'domain_reputation_history'] as const;
const MONTHS_AHEAD = 2;
/** The tables whose integer ids came from an identity, which becomes a plain sequence. */
const SEQUENCED = ['check_results', 'dns_snapshots', 'domain_reputation_history'] as const;

function monthStart(at: Date, plus: number): string {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + plus, 1)).toISOString().slice(0, 10);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  const { rows } = await sql<{ now: Date }>`select now() as now`.execute(db);
  const now = rows[0]!.now;
  const current = monthStart(now, 0);

  await sql`alter table domain_alerts drop constraint domain_alerts_check_id_fkey, drop constraint domain_alerts_scan_id_fkey`.execute(db);
  await sql`alter table domain_reputation_history drop constraint domain_reputation_history_scan_id_fkey`.execute(db);
  await sql`alter table scans drop constraint scans_dns_snapshot_id_fkey`.execute(db);

  // Where each identity stood: new ids stay above every id ever handed out (an alert may name one).
  const lastIds = new Map<string, number>();
  for (const table of SEQUENCED) {
    const { rows: last } = await sql<{ id: string | null }>`select pg_sequence_last_value(pg_get_serial_sequence(${table}, 'id')::regclass) as id`.execute(db);
    lastIds.set(table, Number(last[0]?.id ?? 0));
  }

  for (const table of TABLES) {
    const next = `${table}_partitioned`;
    // LIKE copies the columns, defaults, not-nulls and checks; not the identity, the keys or the indexes.
    await sql`create table ${sql.id(next)} (
      like ${sql.id(table)} including defaults including constraints,
      stored_month date not null default date_trunc('month', now() at time zone 'UTC')::date
    ) partition by range (stored_month)`.execute(db);
    for (let plus = 0; plus <= MONTHS_AHEAD; plus++) {
      const from = monthStart(now, plus);
      await sql`create table ${sql.id(`${table}_${from.slice(0, 4)}_${from.slice(5, 7)}`)} partition of ${sql.id(next)}
        for values from (${sql.lit(from)}) to (${sql.lit(monthStart(now, plus + 1))})`.execute(db);
    }
    await sql`insert into ${sql.id(next)} select *, ${sql.lit(current)}::date from ${sql.id(table)}`.execute(db);
    await sql`drop table ${sql.id(table)}`.execute(db);
    await sql`alter table ${sql.id(next)} rename to ${sql.id(table)}`.execute(db);
    await sql`alter table ${sql.id(table)} add primary key (id, stored_month)`.execute(db);
  }

  for (const table of SEQUENCED) {
    const sequence = `${table}_id_seq`;
    await sql`create sequence ${sql.id(sequence)} as integer owned by ${sql.raw(`${table}.id`)}`.execute(db);
    await sql`select setval(${sequence}, greatest(coalesce((select max(id) from ${sql.id(table)}), 0), ${lastIds.get(table)!}::int) + 1, false)`.execute(db);
    await sql`alter table ${sql.id(table)} alter column id set default nextval(${sql.lit(sequence)})`.execute(db);
  }

  await sql`alter table scans add foreign key (domain_id) references domains (id) on delete cascade`.execute(db);
  await sql`create index scans_domain_id_created_at_idx on scans (domain_id, created_at desc)`.execute(db);
  await sql`create index scans_unfinished_idx on scans (greatest(created_at, started_at, recovery_checked_at))
    where status in ('queued', 'running')`.execute(db);
  await sql`alter table check_results add foreign key (domain_id) references domains (id) on delete cascade`.execute(db);
  await sql`create index check_results_domain_id_type_idx on check_results (domain_id, type, created_at desc)`.execute(db);
  await sql`alter table dns_snapshots add foreign key (domain_id) references domains (id) on delete cascade`.execute(db);
  await sql`create index dns_snapshots_domain_id_idx on dns_snapshots (domain_id, created_at desc)`.execute(db);
  await sql`alter table domain_reputation_history add foreign key (domain_id) references domains (id) on delete cascade`.execute(db);
  await sql`create index reputation_domain_id_calculated_at_idx on domain_reputation_history (domain_id, calculated_at desc)`.execute(db);
  await sql`create unique index domain_reputation_history_daily_key on domain_reputation_history (domain_id, daily_for, stored_month)
    where daily_for is not null`.execute(db);

  await sql`create table scan_days (
    domain_id integer not null references domains (id) on delete cascade,
    day date not null,
    stored_month date not null default date_trunc('month', now() at time zone 'UTC')::date,
    scans integer not null,
    last_scan_id uuid not null,
    last_scan_at timestamptz not null,
    overall_status text,
    checks text[] not null default '{}',
    score integer,
    primary key (domain_id, day, stored_month)
  ) partition by range (stored_month)`.execute(db);
  for (let plus = 0; plus <= MONTHS_AHEAD; plus++) {
    const from = monthStart(now, plus);
    await sql`create table ${sql.id(`scan_days_${from.slice(0, 4)}_${from.slice(5, 7)}`)} partition of scan_days
      for values from (${sql.lit(from)}) to (${sql.lit(monthStart(now, plus + 1))})`.execute(db);
  }
  // Every day of the history so far, as the engine would have kept it (all in the current month, as above).
  await sql`insert into scan_days (domain_id, day, stored_month, scans, last_scan_id, last_scan_at, overall_status, checks, score)
    select l.domain_id, l.d, ${sql.lit(current)}::date, l.n, l.id, l.created_at, l.overall_status,
      array(select r.type || '=' || r.status from check_results r where r.id = any(l.check_result_ids) order by r.type),
      (select h.score from domain_reputation_history h
        where h.domain_id = l.domain_id and h.calculated_at >= (l.d::timestamp at time zone 'UTC') and h.calculated_at < ((l.d + 1)::timestamp at time zone 'UTC')
        order by h.calculated_at desc, h.id desc limit 1)
    from (
      select distinct on (domain_id, d) domain_id, d, id, created_at, overall_status, check_result_ids,
        (count(*) over (partition by domain_id, d))::int as n
      from (select s.*, (s.created_at at time zone 'UTC')::date as d from scans s where s.status = 'completed') s
      order by domain_id, d, created_at desc, id desc
    ) l`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward only.');
}
