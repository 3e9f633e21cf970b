import { createHash } from 'node:crypto';
import { EMAIL_NOT_VERIFIED, INVALID_CREDENTIALS, messages, VERIFICATION_TOKEN_INVALID } from '@sendwell/contracts';
import { sql } from '@sendwell/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VERIFICATION_MAIL_FAILED } from '../src/services/auth.service.js';
import { APP_URL, bearer, closedPort, linkToken, login, registration, startHarness, tokenCookie, type Harness } from './fixtures.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ REQUIRE_EMAIL_VERIFICATION: 'true' });
});
afterAll(() => h.close());

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');
const verify = (token?: string) =>
  h.app.inject({ method: 'GET', url: token === undefined ? '/api/auth/verify-email' : `/api/auth/verify-email?token=${encodeURIComponent(token)}` });

/** Registers and answers the body, the registration and the token from the mail received. */
async function registerPending(overrides: Record<string, unknown> = {}) {
  const body = registration(overrides);
  const res = await h.app.inject({ method: 'POST', url: '/api/auth/register', payload: body });
  const mail = await h.smtp.waitFor((m) => m.to.includes(body.email) && /verify/i.test(m.subject));
  return { body, res, mail, token: linkToken(mail, '/verify-email') };
}

describe('registration with REQUIRE_EMAIL_VERIFICATION on', () => {
  it('answers emailVerificationRequired, sets no cookie and mails a 24-hour link whose hash is stored', async () => {
    const { body, res, mail, token } = await registerPending();
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({ emailVerificationRequired: true, message: expect.stringMatching(/verification link/) });
    expect(tokenCookie(res.headers['set-cookie'])).toBeUndefined();
    expect(mail.text).toContain(`${APP_URL}/verify-email?token=`);
    expect(mail.subject).toBe('Verify your email address for Sendwell');

    const row = await h.db
      .selectFrom('users')
      .select(['emailVerified', 'emailVerificationToken', 'emailVerificationExpires'])
      .where(sql`lower(email)`, '=', body.email)
      .executeTakeFirstOrThrow();
    expect(row.emailVerified).toBe(false);
    expect(row.emailVerificationToken).toBe(sha256(token));
    expect(Math.abs(row.emailVerificationExpires!.getTime() - Date.now() - 86_400_000)).toBeLessThan(60_000);
    const { count } = await h.db.selectFrom('sessions').select(sql<number>`count(*)::int`.as('count')).executeTakeFirstOrThrow();
    expect(count).toBe(0);
  });

  it('refuses login before verification with 403, but a wrong password still gets the generic 401', async () => {
    const { body } = await registerPending();
    const res = await login(h.app, body.email, body.password);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 'FORBIDDEN', message: EMAIL_NOT_VERIFIED });
    expect(tokenCookie(res.headers['set-cookie'])).toBeUndefined();
    const wrong = await login(h.app, body.email, 'wrong-password');
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().message).toBe(INVALID_CREDENTIALS);
  });

  it('signs the user in from the link, once; then login works', async () => {
    const { body, token } = await registerPending();
    const res = await verify(token);
    expect(res.statusCode).toBe(200);
    const json = res.json();
    expect(json.user).toMatchObject({ email: body.email, emailVerified: true });
    expect(tokenCookie(res.headers['set-cookie'])?.value).toBe(json.token);
    expect((await h.app.inject({ method: 'GET', url: '/api/user', headers: bearer(json.token) })).json().emailVerified).toBe(true);

    const again = await verify(token);
    expect(again.statusCode).toBe(400);
    expect(again.json()).toMatchObject({ code: 'VALIDATION_FAILED', message: VERIFICATION_TOKEN_INVALID });
    expect((await login(h.app, body.email, body.password)).statusCode).toBe(200);
  });

  it('refuses an expired link; logging in then mails a fresh one that works', async () => {
    const { body, token } = await registerPending();
    await h.db.updateTable('users').set({ emailVerificationExpires: new Date(Date.now() - 1000) }).where('emailVerificationToken', '=', sha256(token)).execute();
    const expired = await verify(token);
    expect(expired.statusCode).toBe(400);
    expect(expired.json().message).toBe(VERIFICATION_TOKEN_INVALID);

    const before = h.smtp.messages.length;
    expect((await login(h.app, body.email, body.password)).statusCode).toBe(403);
    const fresh = await h.smtp.waitFor((m) => h.smtp.messages.indexOf(m) >= before && m.to.includes(body.email));
    const freshToken = linkToken(fresh, '/verify-email');
    expect(freshToken).not.toBe(token);
    expect((await verify(freshToken)).statusCode).toBe(200);
  });

  it('refuses a missing, empty or unknown token with 400', async () => {
    for (const token of [undefined, '', '   ']) {
      const res = await verify(token);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(messages.verificationTokenMissing);
    }
    const unknown = await verify('no-such-token');
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toBe(VERIFICATION_TOKEN_INVALID);
  });
});

describe('registration when the verification mail cannot be sent', () => {
  let down: Harness;
  beforeAll(async () => {
    down = await startHarness({ REQUIRE_EMAIL_VERIFICATION: 'true', SMTP_URL: `smtp://127.0.0.1:${await closedPort()}` });
  });
  afterAll(() => down.close());

  it('answers 503 with a clear message and keeps no user', async () => {
    const body = registration();
    const res = await down.app.inject({ method: 'POST', url: '/api/auth/register', payload: body });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE', message: VERIFICATION_MAIL_FAILED });
    const row = await down.db.selectFrom('users').select('id').where(sql`lower(email)`, '=', body.email).executeTakeFirst();
    expect(row).toBeUndefined();
  });
});
