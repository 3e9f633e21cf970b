import { sql, type Kysely } from 'kysely';

/*
 * The nightly clean-up (domains service, maintenance queue) deletes what has outlived its use:
 * sample domains nobody has looked at for 30 days, expired or revoked sessions, used or expired
 * password-reset tokens. It deletes in batches, each batch a `... limit n` over its predicate, so
 * each predicate has an index here; without one every batch would scan the whole table again.
 *
 * `last_viewed_at` is bumped by the quick check when it reads a sample domain; `updated_at` and
 * `last_scan` cannot say "viewed", as the scanner writes them. Existing rows start at the migration
 * time, so none is purged before 30 days have passed without a view.
 * Frozen in time: imports no app code.
 */

// Kysely's guidance: migrations take Kysely<any>, never the app's schema type, which changes later.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table sample_domains add column last_viewed_at timestamptz not null default now()`.execute(db);
  await sql`create index sample_domains_last_viewed_at_idx on sample_domains (last_viewed_at)`.execute(db);
  await sql`create index sessions_expires_idx on sessions (expires)`.execute(db);
  // Few sessions are revoked before they expire: a partial index stays small.
  await sql`create index sessions_revoked_at_idx on sessions (revoked_at) where revoked_at is not null`.execute(db);
  await sql`create index password_reset_tokens_expires_at_idx on password_reset_tokens (expires_at)`.execute(db);
  await sql`create index password_reset_tokens_used_at_idx on password_reset_tokens (used_at) where used_at is not null`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward only.');
}
