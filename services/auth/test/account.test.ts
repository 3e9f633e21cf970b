import {
  NOT_AUTHENTICATED,
  PASSWORD_CHANGED_MESSAGE,
  PROFILE_UPDATED_MESSAGE,
  USERNAME_TAKEN,
  WRONG_CURRENT_PASSWORD,
  accountExportSchema,
  messages,
} from '@sendwell/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_URL, bearer, login, registerAndLogin, startHarness, type Harness } from './fixtures.js';
import { subscribe } from './paying.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({}, { billing: true });
});
afterAll(() => h.close());

const put = (url: string, headers: Record<string, string>, payload: unknown) => h.app.inject({ method: 'PUT', url, headers, payload: payload as object });
const me = (token: string) => h.app.inject({ url: '/api/user', headers: bearer(token) });

describe('PUT /api/user/profile', () => {
  it('changes the names and username, trimmed, and answers the user', async () => {
    const { token, user } = await registerAndLogin(h.app);
    const res = await put('/api/user/profile', bearer(token), { firstName: '  Grace ', lastName: 'Hopper', username: `grace_${user.id}` });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ message: PROFILE_UPDATED_MESSAGE, user: { firstName: 'Grace', lastName: 'Hopper', username: `grace_${user.id}`, email: user.email } });
    expect((await me(token)).json()).toMatchObject({ firstName: 'Grace', username: `grace_${user.id}` });
  });

  it('clears an emptied name', async () => {
    const { token, body } = await registerAndLogin(h.app);
    const res = await put('/api/user/profile', bearer(token), { firstName: '', lastName: null, username: body.username });
    expect(res.json()).toMatchObject({ user: { firstName: null, lastName: null } });
  });

  it('refuses bad input with the register rules’ messages', async () => {
    const { token } = await registerAndLogin(h.app);
    const cases: Array<[unknown, string]> = [
      [{ firstName: 'A', lastName: 'B', username: '' }, messages.required],
      [{ username: 'has space' }, messages.usernameChars],
      [{ username: 'x'.repeat(51) }, messages.usernameMax],
      [{ username: 'ok', firstName: 'a\u0000b' }, 'First name must not contain control characters'],
      [[], messages.required],
    ];
    for (const [payload, message] of cases) {
      const res = await put('/api/user/profile', bearer(token), payload);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED', message });
    }
  });

  it('refuses a username another user has, in any letter case (409)', async () => {
    const first = await registerAndLogin(h.app);
    const { token } = await registerAndLogin(h.app);
    const res = await put('/api/user/profile', bearer(token), { username: first.body.username.toUpperCase() });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'CONFLICT', message: USERNAME_TAKEN });
  });

  it('answers 401 without a session', async () => {
    const res = await put('/api/user/profile', {}, { username: 'nobody' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ message: NOT_AUTHENTICATED });
  });
});

describe('PUT /api/user/password', () => {
  it('changes the password, keeps this session, ends every other one and mails a notice', async () => {
    const { token, user, password } = await registerAndLogin(h.app);
    const other = (await login(h.app, user.email, password)).json().token as string;
    expect((await me(other)).statusCode).toBe(200);

    const res = await put('/api/user/password', bearer(token), { currentPassword: password, newPassword: 'brand-new-pass', confirmPassword: 'brand-new-pass' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: PASSWORD_CHANGED_MESSAGE });

    expect((await me(token)).statusCode).toBe(200);
    const old = await me(other);
    expect(old.statusCode).toBe(401);
    expect(old.json()).toMatchObject({ code: 'UNAUTHORIZED', message: NOT_AUTHENTICATED });
    expect((await login(h.app, user.email, password)).statusCode).toBe(401);
    expect((await login(h.app, user.email, 'brand-new-pass')).statusCode).toBe(200);

    const mail = await h.smtp.waitFor((m) => m.to.includes(user.email) && m.subject === 'Your Sendwell password was changed');
    expect(mail.text).toContain(`${APP_URL}/login`);
    expect(mail.text).not.toContain('brand-new-pass');
  });

  it('refuses a wrong current password with 400 and the message, changing nothing', async () => {
    const { token, user, password } = await registerAndLogin(h.app);
    const res = await put('/api/user/password', bearer(token), { currentPassword: 'not-the-password', newPassword: 'brand-new-pass', confirmPassword: 'brand-new-pass' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED', message: WRONG_CURRENT_PASSWORD });
    expect((await login(h.app, user.email, password)).statusCode).toBe(200);
    expect((await me(token)).statusCode).toBe(200);
  });

  it('refuses bad input with the messages of the register form', async () => {
    const { token, password } = await registerAndLogin(h.app);
    const cases: Array<[unknown, string]> = [
      [{ currentPassword: password, newPassword: 'short', confirmPassword: 'short' }, messages.passwordMin8],
      [{ currentPassword: password, newPassword: 'long-enough-1', confirmPassword: 'long-enough-2' }, messages.passwordsDontMatch],
      [{ currentPassword: '', newPassword: 'long-enough-1', confirmPassword: 'long-enough-1' }, 'Please enter your current password'],
      [{}, 'Please enter your current password'],
    ];
    for (const [payload, message] of cases) {
      const res = await put('/api/user/password', bearer(token), payload);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED', message });
    }
  });

  it('answers 401 without a session', async () => {
    expect((await put('/api/user/password', {}, { currentPassword: 'a', newPassword: 'long-enough', confirmPassword: 'long-enough' })).statusCode).toBe(401);
  });
});

describe('GET /api/user/export', () => {
  it('is one JSON download of the caller’s own data, without a secret', async () => {
    const owner = await registerAndLogin(h.app);
    const stranger = await registerAndLogin(h.app);
    await subscribe(h, owner.user.id, owner.token);
    const [domain] = await h.db.insertInto('domains').values({ userId: owner.user.id, name: 'owned.example.com' }).returning('id').execute();
    await h.db.insertInto('scans').values({ domainId: domain!.id, trigger: 'manual', status: 'completed' }).execute();
    await h.db.insertInto('domainAlerts').values({ domainId: domain!.id, userId: owner.user.id, type: 'dns_change', severity: 'low', title: 'DNS changed', message: 'm' }).execute();
    await h.db.insertInto('integrations').values({ userId: owner.user.id, service: 'slack', config: JSON.stringify({ sealed: 'SECRET-CONFIG-VALUE' }) }).execute();
    await h.db.insertInto('webhookEndpoints').values({ userId: owner.user.id, url: 'https://hooks.example.com/T000/SECRET-PATH', sealedSecret: 'SEALED-SECRET' }).execute();
    await h.db.insertInto('reports').values({ userId: owner.user.id, domainId: domain!.id, type: 'full', data: JSON.stringify({ domainName: 'owned.example.com' }) }).execute();
    await h.db.insertInto('domains').values({ userId: stranger.user.id, name: 'stranger.example.com' }).execute();

    const res = await h.app.inject({ url: '/api/user/export', headers: bearer(owner.token) });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toBe(`attachment; filename="sendwell-export-${new Date().toISOString().slice(0, 10)}.json"`);
    const document = accountExportSchema.parse(res.json());
    expect(document.profile).toMatchObject({ id: owner.user.id, email: owner.user.email });
    expect(document.domains.map((d) => d.name)).toEqual(['owned.example.com']);
    expect(document.scans).toEqual([expect.objectContaining({ domainName: 'owned.example.com', scans: 1, completed: 1, failed: 0 })]);
    expect(document.alerts.map((a) => a.title)).toEqual(['DNS changed']);
    expect(document.integrations).toEqual([expect.objectContaining({ service: 'slack', isEnabled: true })]);
    expect(document.webhooks).toEqual([expect.objectContaining({ origin: 'https://hooks.example.com' })]);
    expect(document.reports).toEqual([expect.objectContaining({ type: 'full', domainId: domain!.id })]);
    expect(document.invoices.length).toBeGreaterThan(0);
    expect(document.invoices.every((i) => i.status === 'paid')).toBe(true);

    for (const secret of ['SECRET-CONFIG-VALUE', 'SECRET-PATH', 'SEALED-SECRET', 'passwordHash', 'config', 'stranger.example.com', owner.password]) {
      expect(res.body).not.toContain(secret);
    }
  });

  it('answers 401 without a session', async () => {
    expect((await h.app.inject({ url: '/api/user/export' })).statusCode).toBe(401);
  });
});
