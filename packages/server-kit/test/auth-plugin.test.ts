import { createTestDb, type TestDb } from '@sendwell/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, type App } from '../src/app.js';
import { authPlugin, requireAuth } from '../src/auth-plugin.js';
import { createLogger } from '../src/logger.js';

const secret = 'a-test-secret-that-is-long-enough-0123456789';
let t: TestDb;
let app: App;
let userId: number;

async function session(opts: { expires?: Date; revoked?: boolean } = {}) {
  const row = await t.db
    .insertInto('sessions')
    .values({ userId, expires: opts.expires ?? new Date(Date.now() + 60_000), revokedAt: opts.revoked ? new Date() : null })
    .returning('id')
    .executeTakeFirstOrThrow();
  return app.jwt.sign({ sub: String(userId), sid: row.id });
}

beforeAll(async () => {
  t = await createTestDb();
  userId = (await t.db.insertInto('users').values({ username: 'u', email: 'u@example.com', passwordHash: 'x', planType: 'standard' }).returning('id').executeTakeFirstOrThrow()).id;
  app = createApp({ logger: createLogger('test', 'silent') });
  await app.register(authPlugin, { secret, db: t.db });
  app.get('/me', { onRequest: [app.authenticate] }, async (request) => {
    const { user } = requireAuth(request);
    return { id: user.id, planType: user.planType };
  });
  await app.ready();
});
afterAll(async () => {
  await app.close();
  await t.close();
});

describe('authPlugin', () => {
  it('accepts a live session by Bearer header and by cookie, with the plan read from the database', async () => {
    const token = await session();
    const byHeader = await app.inject({ url: '/me', headers: { authorization: `Bearer ${token}` } });
    expect(byHeader.statusCode).toBe(200);
    expect(byHeader.json()).toEqual({ id: userId, planType: 'standard' });
    const byCookie = await app.inject({ url: '/me', cookies: { token } });
    expect(byCookie.statusCode).toBe(200);
  });

  it('refuses a missing, forged, revoked or expired session with 401', async () => {
    expect((await app.inject('/me')).statusCode).toBe(401);
    // Change a character in the middle of the signature: the last base64url character carries
    // padding bits, so altering it may leave the signature bytes unchanged.
    const token = await session();
    const at = token.lastIndexOf('.') + 10;
    const forged = token.slice(0, at) + (token[at] === 'A' ? 'B' : 'A') + token.slice(at + 1);
    expect((await app.inject({ url: '/me', headers: { authorization: `Bearer ${forged}` } })).statusCode).toBe(401);
    const revoked = await session({ revoked: true });
    expect((await app.inject({ url: '/me', headers: { authorization: `Bearer ${revoked}` } })).statusCode).toBe(401);
    const expired = await session({ expires: new Date(Date.now() - 1000) });
    const res = await app.inject({ url: '/me', headers: { authorization: `Bearer ${expired}` } });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ code: 'UNAUTHORIZED', message: 'Authentication required. Please log in.' });
  });

  it('refuses a token whose session belongs to another user', async () => {
    const other = await t.db.insertInto('users').values({ username: 'o', email: 'o@example.com', passwordHash: 'x' }).returning('id').executeTakeFirstOrThrow();
    const row = await t.db.insertInto('sessions').values({ userId, expires: new Date(Date.now() + 60_000) }).returning('id').executeTakeFirstOrThrow();
    const token = app.jwt.sign({ sub: String(other.id), sid: row.id });
    expect((await app.inject({ url: '/me', headers: { authorization: `Bearer ${token}` } })).statusCode).toBe(401);
  });

  it('refuses a token whose session id is not a uuid without touching the database', async () => {
    const token = app.jwt.sign({ sub: String(userId), sid: 'not-a-uuid' });
    expect((await app.inject({ url: '/me', headers: { authorization: `Bearer ${token}` } })).statusCode).toBe(401);
  });
});

describe('authPlugin session cache', () => {
  const me = (token: string) => app.inject({ url: '/me', headers: { authorization: `Bearer ${token}` } });

  it('refuses a cached session on the very next request once its row is revoked by anyone', async () => {
    const token = await session();
    expect((await me(token)).statusCode).toBe(200);
    expect((await me(token)).statusCode).toBe(200); // now answered from memory
    const sid = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()).sid as string;
    // Written straight to the database, as another process (the auth service's logout) would.
    await t.db.updateTable('sessions').set({ revokedAt: new Date() }).where('id', '=', sid).execute();
    expect((await me(token)).statusCode).toBe(401);
  });

  it('reads a plan change on the next request although the session was cached', async () => {
    const token = await session();
    expect((await me(token)).json()).toEqual({ id: userId, planType: 'standard' });
    await t.db.updateTable('users').set({ planType: 'advanced' }).where('id', '=', userId).execute();
    expect((await me(token)).json()).toEqual({ id: userId, planType: 'advanced' });
    await t.db.updateTable('users').set({ planType: 'standard' }).where('id', '=', userId).execute();
    expect((await me(token)).json()).toEqual({ id: userId, planType: 'standard' });
  });

  it('refuses a cached session once it expires, with no write to tell it', async () => {
    const token = await session({ expires: new Date(Date.now() + 300) });
    expect((await me(token)).statusCode).toBe(200);
    await new Promise((r) => setTimeout(r, 350));
    expect((await me(token)).statusCode).toBe(401);
  });

  it('answers concurrent requests with the counter read once per round trip, not once per request', async () => {
    let epochReads = 0;
    // The cache reads the counter through executeQuery; the session lookup goes through the query builder.
    const counting = new Proxy(t.db, {
      get(target, prop, receiver) {
        if (prop === 'executeQuery') {
          return (...args: Parameters<typeof target.executeQuery>) => {
            epochReads++;
            return target.executeQuery(...args);
          };
        }
        const value: unknown = Reflect.get(target, prop, receiver);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const other = createApp({ logger: createLogger('test', 'silent') });
    await other.register(authPlugin, { secret, db: counting });
    other.get('/me', { onRequest: [other.authenticate] }, async () => ({ ok: true }));
    await other.ready();
    try {
      const token = await session();
      const answers = await Promise.all(Array.from({ length: 100 }, () => other.inject({ url: '/me', headers: { authorization: `Bearer ${token}` } })));
      expect(answers.every((a) => a.statusCode === 200)).toBe(true);
      expect(epochReads).toBeGreaterThan(0);
      expect(epochReads).toBeLessThanOrEqual(3);
    } finally {
      await other.close();
    }
  });
});

