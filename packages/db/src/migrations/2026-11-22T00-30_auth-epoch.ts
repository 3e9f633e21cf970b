import { sql, type Kysely } from 'kysely';

/*
 * Services keep verified sessions in memory rather than reading `sessions` and `users` on every
 * request, yet logout, password reset and a plan change must take effect on the very next request in
 * every process. Any change to those rows, whoever writes it (the auth service, billing, a test, an
 * operator's SQL), bumps one counter in the same transaction; a process re-reads the counter (one
 * tiny query shared by all the requests that arrived meanwhile) before trusting its memory, and drops
 * it when the counter moved. The bump runs at commit (a deferred constraint trigger), so the counter's
 * row lock is held for microseconds, not for the writer's whole transaction.
 * Frozen in time: imports no app code.
 */

// Kysely's guidance: migrations take Kysely<any>, never the app's schema type, which changes later.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create table auth_epoch (id smallint primary key check (id = 1), value bigint not null default 0)`.execute(db);
  await sql`insert into auth_epoch (id, value) values (1, 0)`.execute(db);
  await sql`
    create function bump_auth_epoch() returns trigger language plpgsql as $$
    begin
      update auth_epoch set value = value + 1 where id = 1;
      return null;
    end
    $$
  `.execute(db);
  for (const table of ['sessions', 'users']) {
    await sql`
      create constraint trigger ${sql.raw(`${table}_auth_epoch`)} after update or delete on ${sql.table(table)}
      deferrable initially deferred for each row execute function bump_auth_epoch()
    `.execute(db);
    // Constraint triggers cannot fire on TRUNCATE; a statement trigger covers it.
    await sql`
      create trigger ${sql.raw(`${table}_auth_epoch_truncate`)} after truncate on ${sql.table(table)}
      for each statement execute function bump_auth_epoch()
    `.execute(db);
  }
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward only.');
}
