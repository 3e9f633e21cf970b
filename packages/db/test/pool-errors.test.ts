import { createTestDb, type TestDb } from '@sendwell/testing';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb } from '../src/database.js';

let t: TestDb;
beforeAll(async () => {
  t = await createTestDb();
});
afterAll(() => t.close());

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** pg_terminate_backend on every session of `applicationName`, as an operator or a failover would. */
async function terminate(applicationName: string): Promise<number> {
  const admin = new pg.Client({ connectionString: t.url });
  await admin.connect();
  try {
    const { rows } = await admin.query<{ n: number }>(
      'select count(*) filter (where pg_terminate_backend(pid))::int as n from pg_stat_activity where datname = current_database() and application_name = $1',
      [applicationName],
    );
    return rows[0]!.n;
  } finally {
    await admin.end();
  }
}

/**
 * Without a listener on every connection, the server ending one emits an 'error' nobody handles and
 * the process dies (vitest reports it as an unhandled error, failing these tests).
 */
describe('createDb when the server ends its connections', () => {
  it('outlives idle connections ending, reports them, and reconnects', async () => {
    const lost: (Error & { code?: string })[] = [];
    const db = createDb({ connectionString: t.url, max: 3, applicationName: 'pool-idle', onConnectionError: (error) => lost.push(error) });
    try {
      await Promise.all([1, 2, 3].map(() => sql`select pg_sleep(0.05)`.execute(db)));
      expect(await terminate('pool-idle')).toBe(3);
      await expect.poll(() => lost.filter((e) => e.code === '57P01').length, { timeout: 5_000 }).toBe(3);
      expect((await sql<{ one: number }>`select 1 as one`.execute(db)).rows).toEqual([{ one: 1 }]);
    } finally {
      await db.destroy();
    }
  });

  it('outlives a connection ending while a transaction holds it between statements', async () => {
    const db = createDb({ connectionString: t.url, max: 2, applicationName: 'pool-in-use' });
    try {
      const transaction = db.transaction().execute(async (trx) => {
        await sql`select 1`.execute(trx);
        expect(await terminate('pool-in-use')).toBe(1);
        await sleep(300); // the server's FATAL arrives while no query runs on the connection
        await sql`select 1`.execute(trx);
      });
      await expect(transaction).rejects.toThrow();
      expect((await sql<{ one: number }>`select 1 as one`.execute(db)).rows).toEqual([{ one: 1 }]);
    } finally {
      await db.destroy();
    }
  });

  it('fails the running query with the server\'s error and carries on', async () => {
    const db = createDb({ connectionString: t.url, max: 2, applicationName: 'pool-query' });
    try {
      const failure = sql`select pg_sleep(5)`.execute(db).then(() => null, (error: unknown) => error);
      await sleep(200);
      expect(await terminate('pool-query')).toBe(1);
      expect(await failure).toMatchObject({ code: '57P01' });
      await sleep(300); // the socket's end after the FATAL
      expect((await sql<{ one: number }>`select 1 as one`.execute(db)).rows).toEqual([{ one: 1 }]);
    } finally {
      await db.destroy();
    }
  });
});
