import { sql, type Kysely } from 'kysely';

/*
 * The history page now says what changed between consecutive scans, so it reads each check's type
 * with its status. Carrying both in the scan_id index keeps that read index-only (see
 * 2026-11-21T22-45); the narrower index it replaces would send every check back to the heap.
 * Frozen in time: imports no app code.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index domain_checks_scan_id_type_status_idx on domain_checks (scan_id) include (type, status)`.execute(db);
  await sql`drop index domain_checks_scan_id_status_idx`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward only.');
}
