import { controlCharactersMessage, EMAIL_TAKEN, JobName, messages, signupDomainJobId, USERNAME_TAKEN, userSchema } from '@sendwell/contracts';
import { sql } from '@sendwell/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_EMAIL, bearer, registration, startHarness, tokenCookie, type Harness } from './fixtures.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const register = (payload: unknown) => h.app.inject({ method: 'POST', url: '/api/auth/register', payload: payload as object });

describe('POST /api/auth/register', () => {
  it('creates the user, signs them in and sets the cookie', async () => {
    const body = registration({
      email: '  Mixed.Case@Example.COM ',
      confirmEmail: 'mixed.case@example.com',
      signupSource: 'landing_page',
      quickCheckDomain: ' Example.ORG ',
      showUpgradeNotification: true,
    });
    const res = await register(body);
    expect(res.statusCode).toBe(201);
    const json = res.json();
    expect(typeof json.token).toBe('string');
    expect(userSchema.strict().parse(json.user)).toMatchObject({
      username: body.username,
      email: 'mixed.case@example.com',
      firstName: 'Ada',
      lastName: 'Lovelace',
      planType: 'free',
      currency: 'AUD',
      currencyLocked: false,
      preferencesSet: false,
      timezone: 'UTC',
      dateFormat: 'MM/dd/yyyy',
      storageUsage: 0,
      storageLimit: 100,
      oneTimeCredits: 0,
      signupSource: 'landing_page',
      quickCheckDomain: 'example.org',
      showUpgradeNotification: true,
      emailVerified: false,
      isAdmin: false,
    });

    const cookie = tokenCookie(res.headers['set-cookie']);
    expect(cookie?.value).toBe(json.token);
    expect(cookie?.attributes).toMatch(/HttpOnly/);
    expect(cookie?.attributes).toMatch(/SameSite=Lax/);
    expect(cookie?.attributes).toMatch(/Path=\//);
    expect(cookie?.attributes).not.toMatch(/Secure/);
    expect(cookie?.attributes).toMatch(/Max-Age=60(47\d\d|4800)\b/);

    const row = await h.db.selectFrom('users').select(['passwordHash', 'email']).where('id', '=', json.user.id).executeTakeFirstOrThrow();
    expect(row.passwordHash).toMatch(/^\$argon2id\$/);
    expect(row.email).toBe('mixed.case@example.com');

    const me = await h.app.inject({ method: 'GET', url: '/api/user', headers: bearer(json.token) });
    expect(me.statusCode).toBe(200);
    expect(me.json().id).toBe(json.user.id);
  });

  it('gives the session the lifetime of the token (JWT_EXPIRES_IN, 7 days by default)', async () => {
    const res = await register(registration());
    const { token, user } = res.json();
    const claims = JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()) as { sub: string; sid: string; exp: number; iat: number };
    expect(claims.sub).toBe(String(user.id));
    expect(claims.exp - claims.iat).toBe(7 * 24 * 3600);
    const session = await h.db.selectFrom('sessions').select(['userId', 'expires', 'revokedAt']).where('id', '=', claims.sid).executeTakeFirstOrThrow();
    expect(session.userId).toBe(user.id);
    expect(session.revokedAt).toBeNull();
    expect(Math.abs(session.expires.getTime() / 1000 - claims.exp)).toBeLessThanOrEqual(2);
  });

  it('reads an unknown signup source as direct and fills optional fields with null', async () => {
    const res = await register(registration({ signupSource: 'newsletter', firstName: '', lastName: undefined, quickCheckDomain: '' }));
    expect(res.statusCode).toBe(201);
    expect(res.json().user).toMatchObject({ signupSource: 'direct', firstName: null, lastName: null, quickCheckDomain: null });
  });

  it('marks the administrator, whose email equals ADMIN_EMAIL in any letter case, only once the email is verified', async () => {
    // Anyone may register the address first; only the mailbox's owner can verify it.
    const res = await register(registration({ email: ADMIN_EMAIL.toUpperCase(), confirmEmail: ADMIN_EMAIL.toUpperCase() }));
    const { token, user } = res.json();
    expect(user.isAdmin).toBe(false);
    await h.db.updateTable('users').set({ emailVerified: true }).where('id', '=', user.id).execute();
    const me = await h.app.inject({ url: '/api/user', headers: bearer(token) });
    expect(me.json()).toMatchObject({ email: ADMIN_EMAIL.toLowerCase(), emailVerified: true, isAdmin: true });
  });

  it('does not write the domains table for a quick-check domain', async () => {
    await register(registration({ signupSource: 'quick-check', quickCheckDomain: 'quick.example.com' }));
    const { count } = await h.db.selectFrom('domains').select(sql<number>`count(*)::int`.as('count')).executeTakeFirstOrThrow();
    expect(count).toBe(0);
  });

  it('queues provision-signup-domain for a quick-check or landing-page sign-up with a domain, and for no other', async () => {
    const withDomain = await register(registration({ signupSource: 'quick-check', quickCheckDomain: ' Queued.Example.com ' }));
    const landing = await register(registration({ signupSource: 'landing_page', quickCheckDomain: 'landing.example.com' }));
    const direct = await register(registration({ signupSource: 'direct', quickCheckDomain: 'direct.example.com' }));
    const noDomain = await register(registration({ signupSource: 'landing_page', quickCheckDomain: null }));
    const ids = new Set([withDomain, landing, direct, noDomain].map((r) => r.json().user.id as number));

    const jobs = await h.deps.queues.maintenance.getJobs(['waiting', 'delayed', 'prioritized']);
    const provisioned = jobs
      .filter((j) => j.name === JobName.ProvisionSignupDomain && ids.has((j.data as { userId: number }).userId))
      .map((j) => ({ id: j.id, data: j.data as unknown }));
    expect(provisioned).toHaveLength(2);
    expect(provisioned).toEqual(
      expect.arrayContaining([
        { id: signupDomainJobId(withDomain.json().user.id), data: { userId: withDomain.json().user.id, domain: 'queued.example.com' } },
        { id: `signup-domain-${landing.json().user.id}`, data: { userId: landing.json().user.id, domain: 'landing.example.com' } },
      ]),
    );
  });

  const invalid: Array<[string, Record<string, unknown>, string, string]> = [
    ['an invalid email', { email: 'not-an-email' }, 'email', messages.invalidEmail],
    ['an invalid confirmEmail', { confirmEmail: 'nope@' }, 'confirmEmail', messages.invalidEmail],
    ['a 7-character password', { password: '1234567', confirmPassword: '1234567' }, 'password', messages.passwordMin8],
    ['a 7-character confirmPassword', { confirmPassword: '1234567' }, 'confirmPassword', messages.confirmPasswordMin8],
    ['different passwords', { confirmPassword: 'secret13' }, 'confirmPassword', messages.passwordsDontMatch],
    ['different emails', { confirmEmail: 'someone.else@example.com' }, 'confirmEmail', messages.emailsDontMatch],
    ['a missing username', { username: undefined }, 'username', messages.required],
    ['a blank username', { username: '   ' }, 'username', messages.required],
    ['a missing email', { email: undefined }, 'email', messages.required],
    ['a missing password', { password: undefined }, 'password', messages.passwordMin8],
    ['a missing confirmPassword', { confirmPassword: undefined }, 'confirmPassword', messages.confirmPasswordMin8],
    ['a bad quick-check domain', { quickCheckDomain: 'not a domain' }, 'quickCheckDomain', messages.domainInvalid],
    // Postgres refuses NUL (a 500 without the rule); a lone surrogate has no UTF-8 form; C1 and line breaks are no name.
    ['a NUL in firstName', { firstName: 'Al\u0000ice' }, 'firstName', controlCharactersMessage('First name')],
    ['a NUL in lastName', { lastName: '\u0000' }, 'lastName', controlCharactersMessage('Last name')],
    ['a lone surrogate in lastName', { lastName: 'Sm\ud800ith' }, 'lastName', controlCharactersMessage('Last name')],
    ['a C1 control in firstName', { firstName: 'Al\u0085ice' }, 'firstName', controlCharactersMessage('First name')],
    ['a line break in firstName', { firstName: 'Al\nice' }, 'firstName', controlCharactersMessage('First name')],
  ];
  it.each(invalid)('refuses %s with 400 and the exact message', async (_label, overrides, path, message) => {
    const res = await register(registration(overrides));
    expect(res.statusCode).toBe(400);
    const json = res.json();
    expect(json.code).toBe('VALIDATION_FAILED');
    expect(json.details.issues).toContainEqual({ path, message });
    if (Object.keys(overrides).length === 1 || path === 'password') expect(json.message).toBe(message);
  });

  it('answers 400, never 500, for a malformed JSON body, a non-object body or no body', async () => {
    const malformed = await h.app.inject({ method: 'POST', url: '/api/auth/register', headers: { 'content-type': 'application/json' }, payload: '{"username": ' });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toMatchObject({ code: 'VALIDATION_FAILED', message: 'The request body is not valid JSON' });
    for (const raw of ['[1, 2]', 'null', '5', '"text"']) {
      const res = await h.app.inject({ method: 'POST', url: '/api/auth/register', headers: { 'content-type': 'application/json' }, payload: raw });
      expect(res.statusCode).toBe(400);
    }
    expect((await h.app.inject({ method: 'POST', url: '/api/auth/register' })).statusCode).toBe(400);
    expect((await register({ ...registration(), showUpgradeNotification: 'yes' })).statusCode).toBe(400);
  });

  it('keeps names in any script, with accents and emoji', async () => {
    const res = await register(registration({ firstName: ' Zoë 李 ', lastName: "O'Brien-Ünal 😀" }));
    expect(res.statusCode).toBe(201);
    expect(res.json().user).toMatchObject({ firstName: 'Zoë 李', lastName: "O'Brien-Ünal 😀" });
  });

  it('refuses a taken email or username in any letter case with 409', async () => {
    const first = registration();
    expect((await register(first)).statusCode).toBe(201);

    const sameEmail = registration({ email: first.email.toUpperCase(), confirmEmail: first.email.toUpperCase() });
    const res1 = await register(sameEmail);
    expect(res1.statusCode).toBe(409);
    expect(res1.json()).toMatchObject({ code: 'CONFLICT', message: EMAIL_TAKEN });

    const res2 = await register(registration({ username: first.username.toUpperCase() }));
    expect(res2.statusCode).toBe(409);
    expect(res2.json()).toMatchObject({ code: 'CONFLICT', message: USERNAME_TAKEN });
  });

  it('lets exactly one of two simultaneous registrations of one email through', async () => {
    const a = registration();
    const b = registration({ email: a.email, confirmEmail: a.email });
    const results = await Promise.all([register(a), register(b)]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 409]);
    expect(results.find((r) => r.statusCode === 409)!.json().message).toBe(EMAIL_TAKEN);
  });
});

// Verification off: the cookie is issued at registration only when no verification is required (production requires it by default).
describe('the session cookie in production', () => {
  let prod: Harness;
  beforeAll(async () => {
    prod = await startHarness({ NODE_ENV: 'production', JWT_SECRET: 'a-production-secret-of-forty-characters!', TRUSTED_PROXIES: 'loopback', REQUIRE_EMAIL_VERIFICATION: 'false' });
  });
  afterAll(() => prod.close());

  it('is the Secure __Host-token, Path=/ and no Domain, and authenticates requests', async () => {
    const res = await prod.app.inject({ method: 'POST', url: '/api/auth/register', payload: registration() });
    expect(res.statusCode).toBe(201);
    const cookie = tokenCookie(res.headers['set-cookie'], '__Host-token');
    expect(cookie?.value).toBe(res.json().token);
    expect(cookie?.attributes).toMatch(/(^|; )Secure(;|$)/);
    expect(cookie?.attributes).toMatch(/(^|; )Path=\/(;|$)/);
    expect(cookie?.attributes).toMatch(/HttpOnly/);
    expect(cookie?.attributes).not.toMatch(/Domain=/i);
    expect(tokenCookie(res.headers['set-cookie'])).toBeUndefined();
    const me = await prod.app.inject({ url: '/api/user', headers: { cookie: `__Host-token=${cookie!.value}` } });
    expect(me.statusCode).toBe(200);
    expect((await prod.app.inject({ url: '/api/user', headers: { cookie: `token=${cookie!.value}` } })).statusCode).toBe(401);
    const logout = await prod.app.inject({ method: 'POST', url: '/api/auth/logout', headers: { cookie: `__Host-token=${cookie!.value}` } });
    expect(tokenCookie(logout.headers['set-cookie'], '__Host-token')).toMatchObject({ value: '', attributes: expect.stringMatching(/Secure/) });
    expect((await prod.app.inject({ url: '/api/user', headers: { cookie: `__Host-token=${cookie!.value}` } })).statusCode).toBe(401);
  });

  it('keeps the development name when COOKIE_SECURE=false says the deployment has no HTTPS', async () => {
    const plain = await startHarness({ NODE_ENV: 'production', JWT_SECRET: 'a-production-secret-of-forty-characters!', COOKIE_SECURE: 'false', TRUSTED_PROXIES: 'loopback', REQUIRE_EMAIL_VERIFICATION: 'false' });
    try {
      const res = await plain.app.inject({ method: 'POST', url: '/api/auth/register', payload: registration() });
      const cookie = tokenCookie(res.headers['set-cookie']);
      expect(cookie?.value).toBe(res.json().token);
      expect(cookie?.attributes).not.toMatch(/Secure/);
    } finally {
      await plain.close();
    }
  });
});

describe('POST /api/auth/register with COOKIE_SECURE on', () => {
  let secure: Harness;
  beforeAll(async () => {
    secure = await startHarness({ COOKIE_SECURE: 'true', JWT_EXPIRES_IN: '2h' });
  });
  afterAll(() => secure.close());

  it('sets a Secure __Host-token cookie (in development too) and a token of the configured lifetime', async () => {
    const res = await secure.app.inject({ method: 'POST', url: '/api/auth/register', payload: registration() });
    expect(res.statusCode).toBe(201);
    const cookie = tokenCookie(res.headers['set-cookie'], '__Host-token');
    expect(cookie?.attributes).toMatch(/Secure/);
    expect(cookie?.attributes).toMatch(/Max-Age=7(19\d|200)/);
    const claims = JSON.parse(Buffer.from(res.json().token.split('.')[1], 'base64url').toString());
    expect(claims.exp - claims.iat).toBe(7200);
  });
});
