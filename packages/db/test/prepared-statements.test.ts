import { createTestDb, type TestDb } from '@sendwell/testing';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb } from '../src/database.js';

let t: TestDb;
beforeAll(async () => {
  t = await createTestDb();
});
afterAll(() => t.close());

/** The statements prepared on the pool's one connection, as Postgres itself lists them. */
async function prepared(db: ReturnType<typeof createDb>): Promise<string[]> {
  const { rows } = await sql<{ statement: string }>`select statement from pg_prepared_statements where from_sql = false order by prepare_time`.execute(db);
  return rows.map((r) => r.statement);
}

describe('createDb runs statements prepared', () => {
  it('prepares a repeated read once per connection and answers each run with its own parameters', async () => {
    const db = createDb({ connectionString: t.url, max: 1 });
    try {
      const a = await db.insertInto('users').values({ username: 'prep-a', email: 'prep-a@example.com', passwordHash: 'x' }).returning('id').executeTakeFirstOrThrow();
      const b = await db.insertInto('users').values({ username: 'prep-b', email: 'prep-b@example.com', passwordHash: 'x' }).returning('id').executeTakeFirstOrThrow();
      const byId = (id: number) => db.selectFrom('users').select(['id', 'username']).where('id', '=', id).executeTakeFirstOrThrow();
      expect(await byId(a.id)).toEqual({ id: a.id, username: 'prep-a' });
      expect(await byId(b.id)).toEqual({ id: b.id, username: 'prep-b' });
      const statements = await prepared(db);
      expect(statements.filter((s) => s.startsWith('select "id", "username" from "users"'))).toHaveLength(1);
    } finally {
      await db.destroy();
    }
  });

  it('leaves `select *` unnamed, so a column added by a migration does not break it', async () => {
    const db = createDb({ connectionString: t.url, max: 1 });
    try {
      const all = () => db.selectFrom('sessions').selectAll().where('userId', '=', -1).execute();
      await all();
      await sql`alter table sessions add column prep_probe int`.execute(db);
      try {
        await expect(all()).resolves.toEqual([]);
        expect((await prepared(db)).some((s) => s.includes('from "sessions"'))).toBe(false);
      } finally {
        await sql`alter table sessions drop column prep_probe`.execute(db);
      }
    } finally {
      await db.destroy();
    }
  });

  it('keeps a statement usable after its first run failed inside an aborted transaction', async () => {
    const db = createDb({ connectionString: t.url, max: 1 });
    try {
      const count = () => db.selectFrom('users').select((eb) => eb.fn.countAll<string>().as('n')).where('email', '=', 'nobody@example.com').executeTakeFirstOrThrow();
      await expect(
        db.transaction().execute(async (trx) => {
          await sql`select 1 / 0`.execute(trx).catch(() => undefined);
          // The transaction is aborted: Postgres refuses this statement's Parse.
          await trx.selectFrom('users').select((eb) => eb.fn.countAll<string>().as('n')).where('email', '=', 'nobody@example.com').executeTakeFirstOrThrow();
        }),
      ).rejects.toThrow(/aborted/);
      expect(await count()).toEqual({ n: '0' });
    } finally {
      await db.destroy();
    }
  });
});
