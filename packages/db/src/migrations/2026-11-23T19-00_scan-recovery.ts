import { sql, type Kysely } from 'kysely';

/*
 * Scans whose BullMQ job was lost (Redis lost its data, a producer crashed between the row and the
 * job) would stay `queued` or `running` for ever. The scanner's sweeper now looks at unfinished scans
 * older than a lease, re-queues those whose job is gone and fails them after a few tries:
 * - `recovery_tries`: how many times the scan was re-queued (or could not be) by that pass;
 * - `recovery_checked_at`: when the pass last looked, so a scan waiting in a long queue is looked at
 *   once per lease, not at every sweep.
 * The partial index keeps that lookup to the few unfinished scans of a large table.
 * Frozen in time: imports no app code.
 */

// Kysely's guidance: migrations take Kysely<any>, never the app's schema type, which changes later.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table scans add column recovery_tries smallint not null default 0`.execute(db);
  await sql`alter table scans add column recovery_checked_at timestamptz`.execute(db);
  await sql`
    create index scans_unfinished_idx on scans ((greatest(created_at, started_at, recovery_checked_at)))
    where status in ('queued', 'running')
  `.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward only.');
}
