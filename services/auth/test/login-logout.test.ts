import { INVALID_CREDENTIALS, messages, NOT_AUTHENTICATED } from '@sendwell/contracts';
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { factory } from './factory.js';
import { bearer, login, registerAndLogin, startHarness, tokenCookie, type Harness } from './fixtures.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const me = (headers: Record<string, string>) => h.app.inject({ method: 'GET', url: '/api/user', headers });
const logout = (headers: Record<string, string> = {}) => h.app.inject({ method: 'POST', url: '/api/auth/logout', headers });
const sid = (token: string) => (JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { sid: string }).sid;

describe('POST /api/auth/login', () => {
  it('signs in with the right password, in any letter case of the email, and sets the cookie', async () => {
    const user = await factory(h.db).user({ email: 'grace@example.com', password: 'hopper-123' });
    const res = await login(h.app, '  GRACE@example.com ', 'hopper-123');
    expect(res.statusCode).toBe(200);
    const { token, user: dto } = res.json();
    expect(dto).toMatchObject({ id: user.id, email: 'grace@example.com' });
    expect(dto).not.toHaveProperty('passwordHash');
    const cookie = tokenCookie(res.headers['set-cookie']);
    expect(cookie?.value).toBe(token);
    expect(cookie?.attributes).toMatch(/HttpOnly/);

    expect((await me(bearer(token))).json().id).toBe(user.id);
    expect((await me({ cookie: `token=${token}` })).json().id).toBe(user.id);
  });

  it('answers the same 401 for a wrong password and an unknown email', async () => {
    const user = await factory(h.db).user();
    const wrong = await login(h.app, user.email, 'not-the-password');
    const unknown = await login(h.app, 'nobody-here@example.com', 'whatever1');
    for (const res of [wrong, unknown]) {
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ code: 'UNAUTHORIZED', message: INVALID_CREDENTIALS });
      expect(tokenCookie(res.headers['set-cookie'])).toBeUndefined();
    }
  });

  it('spends comparable time on an unknown email as on a wrong password', async () => {
    const user = await factory(h.db).user();
    const time = async (email: string) => {
      const start = performance.now();
      await login(h.app, email, 'wrong-password');
      return performance.now() - start;
    };
    await time(user.email);
    await time('warm-up@example.com');
    const known = Math.min(await time(user.email), await time(user.email));
    const unknown = Math.min(await time('ghost@example.com'), await time('ghost2@example.com'));
    // An argon2 verification each way: without the dummy hash the unknown email would be ~10x faster.
    expect(unknown).toBeGreaterThan(known / 3);
  });

  const invalid: Array<[string, unknown, string]> = [
    ['an invalid email', { email: 'ada-at-example.com', password: 'secret12' }, messages.invalidEmail],
    ['a 7-character password', { email: 'ada@example.com', password: '1234567' }, messages.passwordMin8],
    ['a missing email', { password: 'secret12' }, messages.required],
    ['a missing password', { email: 'ada@example.com' }, messages.passwordMin8],
  ];
  it.each(invalid)('refuses %s with 400 and the exact message', async (_label, payload, message) => {
    const res = await h.app.inject({ method: 'POST', url: '/api/auth/login', payload: payload as object });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED', message });
  });

  it('answers 400 for malformed JSON', async () => {
    const res = await h.app.inject({ method: 'POST', url: '/api/auth/login', headers: { 'content-type': 'application/json' }, payload: '{email:' });
    expect(res.statusCode).toBe(400);
  });
});

describe('POST /api/auth/logout', () => {
  it('revokes the session: the old token is refused as Bearer and as cookie, other sessions live on', async () => {
    const { token, user, password } = await registerAndLogin(h.app);
    const other = (await login(h.app, user.email, password)).json().token as string;

    const res = await logout(bearer(token));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true });
    const cleared = tokenCookie(res.headers['set-cookie']);
    expect(cleared?.value).toBe('');
    expect(cleared?.attributes).toMatch(/Expires=Thu, 01 Jan 1970/);
    expect(cleared?.attributes).toMatch(/Path=\//);

    for (const headers of [bearer(token), { cookie: `token=${token}` }]) {
      const after = await me(headers);
      expect(after.statusCode).toBe(401);
      expect(after.json()).toMatchObject({ code: 'UNAUTHORIZED', message: NOT_AUTHENTICATED });
    }
    const session = await h.db.selectFrom('sessions').select('revokedAt').where('id', '=', sid(token)).executeTakeFirstOrThrow();
    expect(session.revokedAt).toBeInstanceOf(Date);
    expect((await me(bearer(other))).statusCode).toBe(200);
  });

  it('logs out with the cookie alone', async () => {
    const { token } = await registerAndLogin(h.app);
    expect((await logout({ cookie: `token=${token}` })).statusCode).toBe(200);
    expect((await me({ cookie: `token=${token}` })).statusCode).toBe(401);
  });

  it('answers 200 and clears the cookie without a valid session', async () => {
    const attempts: Array<Record<string, string>> = [{}, bearer('garbage'), { authorization: 'Bearer a b' }, { cookie: 'token=nonsense' }];
    for (const headers of attempts) {
      const res = await logout(headers);
      expect(res.statusCode).toBe(200);
      expect(tokenCookie(res.headers['set-cookie'])?.value).toBe('');
    }
    const { token } = await registerAndLogin(h.app);
    await logout(bearer(token));
    expect((await logout(bearer(token))).statusCode).toBe(200);
  });
});

describe('authentication of /api/user', () => {
  it('refuses a request without a token, a tampered token, a foreign signature and an expired session', async () => {
    const { token, user } = await registerAndLogin(h.app);
    expect((await me({})).statusCode).toBe(401);

    const [head, body, signature] = token.split('.');
    const claims = JSON.parse(Buffer.from(body!, 'base64url').toString());
    const forged = Buffer.from(JSON.stringify({ ...claims, sub: String(user.id + 1) })).toString('base64url');
    expect((await me(bearer(`${head}.${forged}.${signature}`))).statusCode).toBe(401);

    const signingInput = `${head}.${body}`;
    const foreign = `${signingInput}.${createHmac('sha256', 'another-secret-that-is-at-least-32-characters').update(signingInput).digest('base64url')}`;
    expect((await me(bearer(foreign))).statusCode).toBe(401);

    await h.db.updateTable('sessions').set({ expires: new Date(Date.now() - 1000) }).where('id', '=', claims.sid).execute();
    const expired = await me(bearer(token));
    expect(expired.statusCode).toBe(401);
    expect(expired.json().message).toBe(NOT_AUTHENTICATED);
  });
});
