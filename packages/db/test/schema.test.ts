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

  it('deletes a user’s domains, scans, stored results and snapshots with the user', async () => {
    const u = await user('dave', 'dave@example.com');
    const d = await t.db.insertInto('domains').values({ userId: u.id, name: 'example.com' }).returning('id').executeTakeFirstOrThrow();
    const result = await t.db.insertInto('checkResults').values({ domainId: d.id, type: 'spf', status: 'valid' }).returning('id').executeTakeFirstOrThrow();
    const snapshot = await t.db.insertInto('dnsSnapshots').values({ domainId: d.id, snapshot: '{}' }).returning('id').executeTakeFirstOrThrow();
    await t.db.insertInto('scans').values({ domainId: d.id, trigger: 'manual', checkResultIds: [result.id], dnsSnapshotId: snapshot.id }).execute();
    await t.db.deleteFrom('users').where('id', '=', u.id).execute();
    const counts = await t.db
      .selectNoFrom([
        sql<number>`(select count(*)::int from check_results where domain_id = ${d.id})`.as('results'),
        sql<number>`(select count(*)::int from dns_snapshots where domain_id = ${d.id})`.as('snapshots'),
        sql<number>`(select count(*)::int from scans where domain_id = ${d.id})`.as('scans'),
      ])
      .executeTakeFirstOrThrow();
    expect(counts).toEqual({ results: 0, snapshots: 0, scans: 0 });
  });

  it('refuses a stored check result of an unknown type or status', async () => {
    const u = await user('erin', 'erin@example.com');
    const d = await t.db.insertInto('domains').values({ userId: u.id, name: 'example.org' }).returning('id').executeTakeFirstOrThrow();
    await expect(t.db.insertInto('checkResults').values({ domainId: d.id, type: 'ptr', status: 'valid' }).execute()).rejects.toMatchObject({ code: '23514' });
    await expect(t.db.insertInto('checkResults').values({ domainId: d.id, type: 'dmarc', status: 'fine' }).execute()).rejects.toMatchObject({ code: '23514' });
  });
});
