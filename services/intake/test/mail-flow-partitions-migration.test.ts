import { createDb, migrateToLatest, sql, type Database } from '@sendwell/db';
import { createEmptyTestDatabase, type TestDatabase } from '@sendwell/db/testing';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { dropMonthPartitionsBefore } from '../src/storage/partitions.js';

/**
 * Migration 2026-11-30T00-00_mail-flow-partitions on a database holding mail flow in the old layout:
 * TLS results and failure reports move into monthly partitions without losing or changing a row, the
 * failure reports' ids go on from where they were, and the months then drop whole.
 */

const BEFORE = '2026-11-29T00-00_history-partitions';
let database: TestDatabase;
let db: Database;

const tlsRows = `select day::text, domain_id, policy_type, policy_domain, mx_host, result_type, sessions::text from tls_results_daily order by 1, 2, 3, 4, 5, 6`;
const failureRows = `select id::text, domain_id, received_at, arrival_date, host(source_ip) as ip, auth_failure, report from dmarc_failure_reports order by id`;
let tlsBefore: unknown[];
let failuresBefore: unknown[];
let domainId: number;

beforeAll(async () => {
  database = await createEmptyTestDatabase(inject('postgresUrl'));
  await migrateToLatest(database.url, { through: BEFORE });
  db = createDb({ connectionString: database.url, max: 1 });
  const user = await sql<{ id: number }>`insert into users (username, email, password_hash, plan_type) values ('mig', 'mig@example.test', 'x', 'advanced') returning id`.execute(db);
  const domain = await sql<{ id: number }>`insert into domains (user_id, name) values (${user.rows[0]!.id}, 'mig.example') returning id`.execute(db);
  domainId = domain.rows[0]!.id;
  // An older month dmarc_records_daily already has (as an ingest made it), and rows in three months.
  await sql`create table dmarc_records_daily_2025_09 partition of dmarc_records_daily for values from ('2025-09-01') to ('2025-10-01')`.execute(db);
  await sql`insert into tls_results_daily (day, domain_id, policy_type, policy_domain, mx_host, result_type, sessions) values
    ('2025-10-31', ${domainId}, 'sts', 'mig.example', '', 'success', 900),
    ('2025-11-01', ${domainId}, 'sts', 'mig.example', 'mx1.mig.example', 'certificate-expired', 12),
    (current_date, ${domainId}, 'tlsa', 'mig.example', '', 'success', 7)`.execute(db);
  // 23:30 UTC on the last day of October is October's, whatever the session's time zone.
  await sql`set time zone 'America/Los_Angeles'`.execute(db);
  await sql`insert into dmarc_failure_reports (domain_id, received_at, arrival_date, source_ip, auth_failure, report) values
    (${domainId}, '2025-10-31 23:30:00+00', '2025-10-31 23:00:00+00', '203.0.113.9', 'dmarc', '{"reportedDomain":"mig.example"}'),
    (${domainId}, '2025-11-01 00:30:00+00', null, null, 'spf', '{}'),
    (${domainId}, now(), null, '2001:db8::1', 'dkim', '{"n":3}')`.execute(db);
  await sql`set time zone 'UTC'`.execute(db);
  tlsBefore = (await sql.raw(tlsRows).execute(db)).rows;
  failuresBefore = (await sql.raw(failureRows).execute(db)).rows;

  await migrateToLatest(database.url);
}, 120_000);

afterAll(async () => {
  await db?.destroy();
  await database?.drop();
});

const partitionsOf = async (parent: string) =>
  (await sql<{ name: string }>`select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid where i.inhparent = ${parent}::regclass order by 1`.execute(db)).rows.map((r) => r.name);

const monthName = (plus: number) => {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + plus, 1)).toISOString().slice(0, 7).replace('-', '_');
};

describe('the mail-flow partitions migration', () => {
  it('keeps every row as it was', async () => {
    expect((await sql.raw(tlsRows).execute(db)).rows).toEqual(tlsBefore);
    expect((await sql.raw(failureRows).execute(db)).rows).toEqual(failuresBefore);
    expect(tlsBefore).toHaveLength(3);
    expect(failuresBefore).toHaveLength(3);
  });

  it('makes the months the rows and dmarc_records_daily need, and this month with the two after it, for all three tables', async () => {
    const months = ['2025_09', '2025_10', '2025_11', monthName(0), monthName(1), monthName(2)];
    for (const table of ['tls_results_daily', 'dmarc_failure_reports', 'dmarc_records_daily']) {
      expect(await partitionsOf(table)).toEqual([...new Set(months)].sort().map((m) => `${table}_${m}`));
    }
    // Each failure report sits in its UTC month.
    const { rows } = await sql<{ part: string; auth: string }>`select tableoid::regclass::text as part, auth_failure as auth from dmarc_failure_reports order by id`.execute(db);
    expect(rows.map((r) => [r.auth, r.part])).toEqual([
      ['dmarc', 'dmarc_failure_reports_2025_10'],
      ['spf', 'dmarc_failure_reports_2025_11'],
      ['dkim', `dmarc_failure_reports_${monthName(0)}`],
    ]);
  });

  it('goes on with the failure reports ids, and keeps the domains cascade', async () => {
    const maxBefore = Math.max(...(failuresBefore as Array<{ id: string }>).map((r) => Number(r.id)));
    const { rows } = await sql<{ id: string }>`insert into dmarc_failure_reports (domain_id, report) values (${domainId}, '{}') returning id::text`.execute(db);
    expect(Number(rows[0]!.id)).toBeGreaterThan(maxBefore);
    const other = await sql<{ id: number }>`insert into domains (user_id, name) select user_id, 'gone.example' from domains where id = ${domainId} returning id`.execute(db);
    const goneId = other.rows[0]!.id;
    await sql`insert into tls_results_daily (day, domain_id, policy_type, policy_domain, mx_host, result_type, sessions) values (current_date, ${goneId}, 'sts', 'gone.example', '', 'success', 1)`.execute(db);
    await sql`insert into dmarc_failure_reports (domain_id, report) values (${goneId}, '{}')`.execute(db);
    await sql`delete from domains where id = ${goneId}`.execute(db);
    const left = await sql<{ n: number }>`select (select count(*) from tls_results_daily where domain_id = ${goneId})::int + (select count(*) from dmarc_failure_reports where domain_id = ${goneId})::int as n`.execute(db);
    expect(left.rows[0]!.n).toBe(0);
  });

  it('drops a month of the three tables whole, with its rows', async () => {
    const dropped = await dropMonthPartitionsBefore(db, '2025-11-01');
    expect(dropped).toEqual(['dmarc_failure_reports', 'dmarc_records_daily', 'tls_results_daily'].flatMap((t) => [`${t}_2025_09`, `${t}_2025_10`]));
    const tls = await sql<{ day: string }>`select day::text from tls_results_daily where domain_id = ${domainId} order by day`.execute(db);
    expect(tls.rows[0]?.day).toBe('2025-11-01');
    const failures = await sql<{ auth: string }>`select auth_failure as auth from dmarc_failure_reports where domain_id = ${domainId} order by id`.execute(db);
    // October's report went with its month; November's, this month's and the one the test before added stay.
    expect(failures.rows.map((r) => r.auth)).toEqual(['spf', 'dkim', null]);
  });
});
