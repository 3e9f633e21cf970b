import { createTestDb, type TestDb } from '@sendwell/testing';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let t: TestDb;
beforeAll(async () => {
  t = await createTestDb();
});
afterAll(() => t.close());

async function user(username: string, email: string) {
  return t.db
    .insertInto('users')
    .values({ username, email, passwordHash: 'x' })
    .returning(['id', 'planType', 'currency', 'timezone', 'dateFormat', 'storageLimit'])
    .executeTakeFirstOrThrow();
}

describe('schema', () => {
  it('gives a new user the spec defaults', async () => {
    const u = await user('alice', 'alice@example.com');
    expect(u).toMatchObject({ planType: 'free', currency: 'AUD', timezone: 'UTC', dateFormat: 'MM/dd/yyyy', storageLimit: 100 });
  });

  it('refuses a username or email taken in any letter case', async () => {
    await user('bob', 'bob@example.com');
    await expect(user('BOB', 'other@example.com')).rejects.toMatchObject({ code: '23505' });
    await expect(user('bobby', 'BOB@example.com')).rejects.toMatchObject({ code: '23505' });
  });

  it('refuses values outside an enumeration', async () => {
    await expect(
      t.db.insertInto('users').values({ username: 'c', email: 'c@example.com', passwordHash: 'x', currency: 'EUR' }).execute(),
    ).rejects.toMatchObject({ code: '23514' });
  });

  it('deletes a user’s domains, scans and checks with the user', async () => {
    const u = await user('dave', 'dave@example.com');
    const d = await t.db.insertInto('domains').values({ userId: u.id, name: 'example.com' }).returning('id').executeTakeFirstOrThrow();
    const s = await t.db.insertInto('scans').values({ domainId: d.id, trigger: 'manual' }).returning('id').executeTakeFirstOrThrow();
    await t.db.insertInto('domainChecks').values({ domainId: d.id, scanId: s.id, type: 'spf', status: 'valid' }).execute();
    await t.db.deleteFrom('users').where('id', '=', u.id).execute();
    const { count } = await t.db.selectFrom('domainChecks').select(sql<number>`count(*)::int`.as('count')).executeTakeFirstOrThrow();
    expect(count).toBe(0);
  });

  it('holds one check of each type per scan, so a retried scan cannot write twice', async () => {
    const u = await user('erin', 'erin@example.com');
    const d = await t.db.insertInto('domains').values({ userId: u.id, name: 'example.org' }).returning('id').executeTakeFirstOrThrow();
    const s = await t.db.insertInto('scans').values({ domainId: d.id, trigger: 'manual' }).returning('id').executeTakeFirstOrThrow();
    const check = { domainId: d.id, scanId: s.id, type: 'dmarc', status: 'missing' };
    await t.db.insertInto('domainChecks').values(check).execute();
    await expect(t.db.insertInto('domainChecks').values(check).execute()).rejects.toMatchObject({ code: '23505' });
  });
});
