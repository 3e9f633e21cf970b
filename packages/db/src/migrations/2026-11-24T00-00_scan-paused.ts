import { sql, type Kysely } from 'kysely';

/*
 * A plan change can leave a user with more domains than the new plan allows. Those above the limit
 * (the newest) stay visible but are not scanned until the user upgrades or removes some:
 * `scan_paused` marks them, so the scanner does not schedule them again after a scan already queued,
 * and the domains service refuses their manual scans. `plan-schedule.ts` keeps it in step with the plan.
 * Frozen in time: imports no app code.
 */

// Kysely's guidance: migrations take Kysely<any>, never the app's schema type, which changes later.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table domains add column scan_paused boolean not null default false`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward only.');
}
