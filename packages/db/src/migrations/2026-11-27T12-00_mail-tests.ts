import { sql, type Kysely } from 'kysely';

/*
 * Inbox Testing (issue 26) in the spec's inbox_placement_tests table, which nothing used before:
 * - test_id is the token of the test's address (`test-<token>@<INTAKE_DOMAIN>`), unique; the address
 *   takes one message while status is 'waiting' and expires_at is ahead.
 * - session: what the intake's SMTP server saw (client address, HELO, MAIL FROM, TLS); raw_gz: the
 *   message as received, gzip'd; results: the scanner's analysis; score: its score out of 10.
 * - from_email and subject come from the message, so they are empty until it arrives.
 * - attempts counts analyses started (the sweep re-queues a received test whose job was lost).
 * Frozen in time: imports no app code.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`delete from inbox_placement_tests`.execute(db);
  await sql`alter table inbox_placement_tests
    alter column status set default 'waiting',
    alter column from_email drop not null,
    alter column subject drop not null,
    add column expires_at timestamptz not null,
    add column received_at timestamptz,
    add column session jsonb,
    add column raw_gz bytea,
    add column error text,
    add column score numeric(3, 1),
    add column attempts integer not null default 0,
    add constraint inbox_placement_tests_status_check check (status in ('waiting', 'received', 'done', 'failed'))`.execute(db);
  await sql`create unique index inbox_placement_tests_test_id_key on inbox_placement_tests (test_id)`.execute(db);
  await sql`drop index inbox_placement_tests_user_id_idx`.execute(db);
  await sql`create index inbox_placement_tests_user_created_idx on inbox_placement_tests (user_id, created_at desc)`.execute(db);
  await sql`create index inbox_placement_tests_received_idx on inbox_placement_tests (received_at) where status = 'received'`.execute(db);
}
