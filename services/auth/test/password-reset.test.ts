import { createHash } from 'node:crypto';
import { FORGOT_PASSWORD_MESSAGE, INVALID_CREDENTIALS, messages, RESET_TOKEN_INVALID } from '@sendwell/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_URL, bearer, linkToken, login, registerAndLogin, startHarness, type Harness } from './fixtures.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const forgot = (email: string) => h.app.inject({ method: 'POST', url: '/api/auth/forgot-password', payload: { email } });
const reset = (payload: unknown) => h.app.inject({ method: 'POST', url: '/api/auth/reset-password-with-token', payload: payload as object });
const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

/** Asks for a reset and answers the token from the mail the SMTP server received. */
async function mailedResetToken(email: string): Promise<string> {
  const before = h.smtp.messages.length;
  expect((await forgot(email)).statusCode).toBe(200);
  const mail = await h.smtp.waitFor((m, i = h.smtp.messages.indexOf(m)) => i >= before && m.to.includes(email.toLowerCase()) && /reset/i.test(m.subject));
  // The token row commits just after the mail leaves; wait for that before touching it.
  await h.deps.background.drain();
  return linkToken(mail, '/reset-password');
}

describe('POST /api/auth/forgot-password', () => {
  it('mails a one-hour link and stores only the hash of its token', async () => {
    const { user } = await registerAndLogin(h.app, { firstName: 'Grace <b>' });
    const res = await forgot(user.email.toUpperCase());
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: FORGOT_PASSWORD_MESSAGE });

    const mail = await h.smtp.waitFor((m) => m.to.includes(user.email));
    expect(mail.subject).toBe('Reset your Sendwell password');
    expect(mail.from).toBe('no-reply@sendwell.local');
    expect(mail.text).toContain(`${APP_URL}/reset-password?token=`);
    expect(mail.html).toContain('Hi Grace &lt;b&gt;,');
    const token = linkToken(mail, '/reset-password');
    await h.deps.background.drain();

    const rows = await h.db.selectFrom('passwordResetTokens').select(['tokenHash', 'expiresAt', 'usedAt']).where('userId', '=', user.id).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.tokenHash).toBe(sha256(token));
    expect(rows[0]!.usedAt).toBeNull();
    expect(Math.abs(rows[0]!.expiresAt.getTime() - Date.now() - 3_600_000)).toBeLessThan(60_000);
  });

  it('answers an unknown email exactly as a known one and sends nothing', async () => {
    const { user } = await registerAndLogin(h.app);
    const known = await forgot(user.email);
    const unknown = await forgot('no-account-here@example.com');
    expect(unknown.statusCode).toBe(known.statusCode);
    expect(unknown.json()).toEqual(known.json());
    await h.deps.background.drain();
    expect(h.smtp.messages.some((m) => m.to.includes('no-account-here@example.com'))).toBe(false);
  });

  it('refuses an invalid email with 400 and the exact message', async () => {
    const res = await forgot('not-an-email');
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(messages.invalidEmail);
    const missing = await h.app.inject({ method: 'POST', url: '/api/auth/forgot-password', payload: {} });
    expect(missing.statusCode).toBe(400);
  });
});

describe('POST /api/auth/reset-password-with-token', () => {
  it('sets the new password, uses the token once and revokes every session of the user', async () => {
    const { user, token: sessionA, password } = await registerAndLogin(h.app);
    const sessionB = (await login(h.app, user.email, password)).json().token as string;
    const resetToken = await mailedResetToken(user.email);

    const res = await reset({ token: resetToken, newPassword: 'brand-new-pass' });
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toMatch(/reset/i);

    for (const t of [sessionA, sessionB]) expect((await h.app.inject({ method: 'GET', url: '/api/user', headers: bearer(t) })).statusCode).toBe(401);
    expect((await login(h.app, user.email, password)).json()).toMatchObject({ message: INVALID_CREDENTIALS });
    expect((await login(h.app, user.email, 'brand-new-pass')).statusCode).toBe(200);

    const row = await h.db.selectFrom('users').select(['passwordHash', 'emailVerified']).where('id', '=', user.id).executeTakeFirstOrThrow();
    expect(row.passwordHash).toMatch(/^\$argon2id\$/);
    expect(row.emailVerified).toBe(true);

    const again = await reset({ token: resetToken, newPassword: 'another-pass-1' });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toMatchObject({ code: 'VALIDATION_FAILED', message: RESET_TOKEN_INVALID });
    expect((await login(h.app, user.email, 'brand-new-pass')).statusCode).toBe(200);
  });

  it('refuses an expired token', async () => {
    const { user, password } = await registerAndLogin(h.app);
    const resetToken = await mailedResetToken(user.email);
    await h.db.updateTable('passwordResetTokens').set({ expiresAt: new Date(Date.now() - 1000) }).where('tokenHash', '=', sha256(resetToken)).execute();
    const res = await reset({ token: resetToken, newPassword: 'brand-new-pass' });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(RESET_TOKEN_INVALID);
    expect((await login(h.app, user.email, password)).statusCode).toBe(200);
  });

  it('refuses an unknown token and a token superseded by a newer request', async () => {
    expect((await reset({ token: 'made-up-token', newPassword: 'brand-new-pass' })).json().message).toBe(RESET_TOKEN_INVALID);
    const { user } = await registerAndLogin(h.app);
    const first = await mailedResetToken(user.email);
    const second = await mailedResetToken(user.email);
    expect(first).not.toBe(second);
    expect((await reset({ token: first, newPassword: 'brand-new-pass' })).statusCode).toBe(400);
    expect((await reset({ token: second, newPassword: 'brand-new-pass' })).statusCode).toBe(200);
  });

  it('lets only one of two simultaneous uses of a token succeed', async () => {
    const { user } = await registerAndLogin(h.app);
    const resetToken = await mailedResetToken(user.email);
    const results = await Promise.all([reset({ token: resetToken, newPassword: 'first-pass-1' }), reset({ token: resetToken, newPassword: 'second-pass-2' })]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 400]);
  });

  const invalid: Array<[string, unknown, string]> = [
    ['a short password', { token: 'abc', newPassword: '1234567' }, messages.passwordMin8],
    ['a missing password', { token: 'abc' }, messages.passwordMin8],
    ['a missing token', { newPassword: 'long-enough' }, messages.resetTokenMissing],
    ['an empty token', { token: '  ', newPassword: 'long-enough' }, messages.resetTokenMissing],
  ];
  it.each(invalid)('refuses %s with 400 and the exact message', async (_label, payload, message) => {
    const res = await reset(payload);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED', message });
  });

  it('answers 400 for malformed JSON', async () => {
    const res = await h.app.inject({ method: 'POST', url: '/api/auth/reset-password-with-token', headers: { 'content-type': 'application/json' }, payload: '{"token": "x",' });
    expect(res.statusCode).toBe(400);
  });
});
