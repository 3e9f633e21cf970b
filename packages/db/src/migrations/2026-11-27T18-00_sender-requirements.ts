import { sql, type Kysely } from 'kysely';

/*
 * The sender requirements verdict (issue 26):
 * - sender_requirement_verdicts keeps each domain's latest verdict (the contracts' SenderRequirements,
 *   as JSON): the reports render it and the next judgement compares with it to raise an alert when a
 *   requirement turns from met to unmet.
 * - inbox_placement_tests.domain_id names the user's domain a test message came from (set by the
 *   scanner from its From domain), so "the latest test message of this domain" is one indexed read.
 *   A purged domain leaves its tests to their user (set null, not cascade).
 * Frozen in time: imports no app code.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create table sender_requirement_verdicts (
    domain_id integer primary key references domains (id) on delete cascade,
    verdict jsonb not null,
    evaluated_at timestamptz not null
  )`.execute(db);
  await sql`alter table inbox_placement_tests drop constraint inbox_placement_tests_domain_id_fkey`.execute(db);
  await sql`alter table inbox_placement_tests add constraint inbox_placement_tests_domain_id_fkey foreign key (domain_id) references domains (id) on delete set null`.execute(db);
  await sql`create index inbox_placement_tests_domain_completed_idx on inbox_placement_tests (domain_id, completed_at desc) where status = 'done'`.execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index inbox_placement_tests_domain_completed_idx`.execute(db);
  await sql`alter table inbox_placement_tests drop constraint inbox_placement_tests_domain_id_fkey`.execute(db);
  await sql`alter table inbox_placement_tests add constraint inbox_placement_tests_domain_id_fkey foreign key (domain_id) references domains (id) on delete cascade`.execute(db);
  await sql`drop table sender_requirement_verdicts`.execute(db);
}
