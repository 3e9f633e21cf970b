import { createTestDb, type TestDb } from '@sendwell/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_ONLY_MESSAGE } from '@sendwell/contracts';
import { createApp, type App } from '../src/app.js';
import { authPlugin, requireAuth, sessionCookie } from '../src/auth-plugin.js';
import { createLogger } from '../src/logger.js';

const secret = 'a-test-secret-that-is-long-enough-0123456789';
const ADMIN_EMAIL = 'Boss@Example.com';
const devCookie = sessionCookie({ NODE_ENV: 'test' });
let t: TestDb;
let app: App;
let userId: number;

async function session(opts: { expires?: Date; revoked?: boolean; user?: number } = {}) {
  const owner = opts.user ?? userId;
  const row = await t.db
    .insertInto('sessions')
    .values({ userId: owner, expires: opts.expires ?? new Date(Date.now() + 60_000), revokedAt: opts.revoked ? new Date() : null })
    .returning('id')
    .executeTakeFirstOrThrow();
  return app.jwt.sign({ sub: String(owner), sid: row.id });
}

beforeAll(async () => {
  t = await createTestDb();
  userId = (await t.db.insertInto('users').values({ username: 'u', email: 'u@example.com', passwordHash: 'x', planType: 'standard' }).returning('id').executeTakeFirstOrThrow()).id;
  app = createApp({ logger: createLogger('test', 'silent') });
  await app.register(authPlugin, { secret, db: t.db, cookie: devCookie, adminEmail: ADMIN_EMAIL });
  // As every /api/admin/* route is guarded.
  app.get('/admin', { onRequest: [app.authenticate], preHandler: [app.requireAdmin] }, async () => ({ admin: true }));
  app.get('/me', { onRequest: [app.authenticate] }, async (request) => {
    const { user } = requireAuth(request);
    return { id: user.id, planType: user.planType };
  });
  app.get('/me/columns', { onRequest: [app.authenticate] }, async (request) => Object.keys(requireAuth(request).user).sort());
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

  it('carries only the columns services use, never the password hash or a token, fresh or cached', async () => {
    const token = await session();
    for (let i = 0; i < 2; i++) {
      const res = await app.inject({ url: '/me/columns', headers: { authorization: `Bearer ${token}` } });
      expect(res.json()).toEqual(['email', 'emailVerified', 'id', 'planType']);
    }
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

  it('refuses a cached session on the very next request once its user is deleted (account deletion)', async () => {
    const doomed = await t.db.insertInto('users').values({ username: 'doomed', email: 'doomed@example.com', passwordHash: 'x' }).returning('id').executeTakeFirstOrThrow();
    const token = await session({ user: doomed.id });
    expect((await me(token)).statusCode).toBe(200);
    expect((await me(token)).statusCode).toBe(200); // now answered from memory
    await t.db.deleteFrom('users').where('id', '=', doomed.id).execute();
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
    await other.register(authPlugin, { secret, db: counting, cookie: devCookie, adminEmail: undefined });
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


describe('sessionCookie', () => {
  it('is the Secure __Host-token in production unless COOKIE_SECURE=false, and the plain token elsewhere', () => {
    expect(sessionCookie({ NODE_ENV: 'production' })).toEqual({ name: '__Host-token', secure: true });
    expect(sessionCookie({ NODE_ENV: 'production', COOKIE_SECURE: false })).toEqual({ name: 'token', secure: false });
    expect(sessionCookie({ NODE_ENV: 'development' })).toEqual({ name: 'token', secure: false });
    expect(sessionCookie({ NODE_ENV: 'test' })).toEqual({ name: 'token', secure: false });
    // __Host- requires Secure, so a Secure cookie always carries the prefix.
    expect(sessionCookie({ NODE_ENV: 'development', COOKIE_SECURE: true })).toEqual({ name: '__Host-token', secure: true });
  });

  it('the plugin reads the cookie under the name it is given, and only that one', async () => {
    const secureApp = createApp({ logger: createLogger('test', 'silent') });
    await secureApp.register(authPlugin, { secret, db: t.db, cookie: sessionCookie({ NODE_ENV: 'production' }), adminEmail: undefined });
    secureApp.get('/me', { onRequest: [secureApp.authenticate] }, async () => ({ ok: true }));
    await secureApp.ready();
    try {
      const token = await session();
      expect((await secureApp.inject({ url: '/me', cookies: { '__Host-token': token } })).statusCode).toBe(200);
      expect((await secureApp.inject({ url: '/me', cookies: { token } })).statusCode).toBe(401);
      expect((await app.inject({ url: '/me', cookies: { '__Host-token': token } })).statusCode).toBe(401);
    } finally {
      await secureApp.close();
    }
  });
});

describe('requireAdmin', () => {
  async function user(email: string, emailVerified: boolean) {
    const row = await t.db
      .insertInto('users')
      .values({ username: `u_${Math.random().toString(36).slice(2)}`, email, passwordHash: 'x', emailVerified })
      .returning('id')
      .executeTakeFirstOrThrow();
    return session({ user: row.id });
  }
  const admin = (token?: string) => app.inject({ url: '/admin', headers: token ? { authorization: `Bearer ${token}` } : {} });

  // One account holds the administrator's address (emails are unique in any case), changed in place.
  it('lets the verified administrator through in any letter case, and refuses the same account unverified', async () => {
    const token = await user('boss@example.com', true);
    const res = await admin(token);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ admin: true });
    const sid = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()).sid as string;
    const owner = await t.db.selectFrom('sessions').select('userId').where('id', '=', sid).executeTakeFirstOrThrow();
    await t.db.updateTable('users').set({ email: 'BOSS@EXAMPLE.COM' }).where('id', '=', owner.userId).execute();
    expect((await admin(token)).statusCode).toBe(200);
    // Registering the address proves no mailbox: until it is verified the account is an ordinary user.
    await t.db.updateTable('users').set({ emailVerified: false }).where('id', '=', owner.userId).execute();
    const unverified = await admin(token);
    expect(unverified.statusCode).toBe(403);
    expect(unverified.json()).toMatchObject({ code: 'FORBIDDEN', message: ADMIN_ONLY_MESSAGE });
  });

  it('refuses every other user with 403 and the contracts message, and anonymous callers with 401', async () => {
    const other = await admin(await user('someone@example.com', true));
    expect(other.statusCode).toBe(403);
    expect(other.json()).toMatchObject({ code: 'FORBIDDEN', message: ADMIN_ONLY_MESSAGE });
    const lookalike = await admin(await user('boss@example.com.evil.test', true));
    expect(lookalike.statusCode).toBe(403);
    const anonymous = await admin();
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toMatchObject({ code: 'UNAUTHORIZED' });
  });
});
