import { CURRENCY_LOCKED_MESSAGE, messages, NOT_AUTHENTICATED, userSchema } from '@sendwell/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, registerAndLogin, startHarness, type Harness } from './fixtures.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

type Method = 'GET' | 'PUT' | 'POST';
const call = (method: Method, url: string, token: string | null, payload?: object) =>
  h.app.inject({ method, url, headers: token ? bearer(token) : {}, ...(payload ? { payload } : {}) });
const row = (id: number) =>
  h.db.selectFrom('users').select(['timezone', 'dateFormat', 'currency', 'preferencesSet', 'showUpgradeNotification', 'updatedAt']).where('id', '=', id).executeTakeFirstOrThrow();

describe('GET /api/user', () => {
  it('answers the caller as the contracts user, without secrets', async () => {
    const { token, user } = await registerAndLogin(h.app);
    const res = await call('GET', '/api/user', token);
    expect(res.statusCode).toBe(200);
    const dto = userSchema.strict().parse(res.json());
    expect(dto.id).toBe(user.id);
    expect(res.body).not.toMatch(/argon2|passwordHash|emailVerificationToken/);
  });

  it('reads the plan from the database, not from the token', async () => {
    const { token, user } = await registerAndLogin(h.app);
    await h.db.updateTable('users').set({ planType: 'advanced' }).where('id', '=', user.id).execute();
    expect((await call('GET', '/api/user', token)).json().planType).toBe('advanced');
  });
});

describe('preferences', () => {
  it('PUT /api/user/timezone stores a valid zone and refuses a bad one', async () => {
    const { token, user } = await registerAndLogin(h.app);
    const before = await row(user.id);
    const res = await call('PUT', '/api/user/timezone', token, { timezone: 'Australia/Sydney' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ message: 'Timezone updated', user: { id: user.id, timezone: 'Australia/Sydney' } });
    const after = await row(user.id);
    expect(after.timezone).toBe('Australia/Sydney');
    expect(after.updatedAt.getTime()).toBeGreaterThanOrEqual(before.updatedAt.getTime());

    for (const [payload, message] of [
      [{ timezone: 'Mars/Olympus_Mons' }, 'Please choose a valid timezone'],
      [{ timezone: '' }, messages.required],
      [{}, messages.required],
    ] as const) {
      const bad = await call('PUT', '/api/user/timezone', token, payload);
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toMatchObject({ code: 'VALIDATION_FAILED', message });
    }
    expect((await row(user.id)).timezone).toBe('Australia/Sydney');
  });

  it('PUT /api/user/date-format stores an offered format and refuses another', async () => {
    const { token, user } = await registerAndLogin(h.app);
    const res = await call('PUT', '/api/user/date-format', token, { dateFormat: 'dd MMMM yyyy' });
    expect(res.statusCode).toBe(200);
    expect(res.json().user.dateFormat).toBe('dd MMMM yyyy');
    const bad = await call('PUT', '/api/user/date-format', token, { dateFormat: 'YYYY/DD/MM' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('Please choose one of the offered date formats');
    expect((await row(user.id)).dateFormat).toBe('dd MMMM yyyy');
  });

  it('PUT /api/user/currency stores AUD, USD or CAD and refuses another', async () => {
    const { token, user } = await registerAndLogin(h.app);
    const res = await call('PUT', '/api/user/currency', token, { currency: 'USD' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ message: 'Currency updated', user: { currency: 'USD' } });
    const bad = await call('PUT', '/api/user/currency', token, { currency: 'EUR' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('Currency must be one of AUD, USD or CAD');
    expect((await row(user.id)).currency).toBe('USD');
  });

  it('PUT /api/user/currency is refused once the currency is locked', async () => {
    const { token, user } = await registerAndLogin(h.app);
    await h.db.updateTable('users').set({ currencyLocked: true, currency: 'CAD' }).where('id', '=', user.id).execute();
    const res = await call('PUT', '/api/user/currency', token, { currency: 'USD' });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 'FORBIDDEN', message: CURRENCY_LOCKED_MESSAGE, currencyLocked: true });
    expect((await row(user.id)).currency).toBe('CAD');
  });

  it('POST /api/user/mark-preferences-set and /dismiss-upgrade-notification change the flags', async () => {
    const { token, user } = await registerAndLogin(h.app, { showUpgradeNotification: true });
    const marked = await call('POST', '/api/user/mark-preferences-set', token);
    expect(marked.statusCode).toBe(200);
    expect(marked.json().user.preferencesSet).toBe(true);
    const dismissed = await call('POST', '/api/user/dismiss-upgrade-notification', token);
    expect(dismissed.statusCode).toBe(200);
    expect(dismissed.json().user.showUpgradeNotification).toBe(false);
    expect(await row(user.id)).toMatchObject({ preferencesSet: true, showUpgradeNotification: false });
  });

  it('answers 400 for malformed JSON', async () => {
    const { token } = await registerAndLogin(h.app);
    const res = await h.app.inject({ method: 'PUT', url: '/api/user/timezone', headers: { ...bearer(token), 'content-type': 'application/json' }, payload: '{"timezone":' });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('The request body is not valid JSON');
  });
});

describe('isolation and authentication', () => {
  it("never reads nor changes another user through a user's token", async () => {
    const alice = await registerAndLogin(h.app);
    const bob = await registerAndLogin(h.app);
    expect((await call('GET', '/api/user', bob.token)).json().id).toBe(bob.user.id);
    await call('PUT', '/api/user/timezone', bob.token, { timezone: 'Asia/Tokyo' });
    await call('PUT', '/api/user/currency', bob.token, { currency: 'CAD' });
    await call('POST', '/api/user/mark-preferences-set', bob.token);
    expect(await row(alice.user.id)).toMatchObject({ timezone: 'UTC', currency: 'AUD', preferencesSet: false });
    expect((await call('GET', '/api/user', alice.token)).json()).toMatchObject({ id: alice.user.id, timezone: 'UTC' });
  });

  const routes: Array<[Method, string, object | undefined]> = [
    ['GET', '/api/user', undefined],
    ['PUT', '/api/user/timezone', { timezone: 'UTC' }],
    ['PUT', '/api/user/date-format', { dateFormat: 'MM/dd/yyyy' }],
    ['PUT', '/api/user/currency', { currency: 'USD' }],
    ['POST', '/api/user/mark-preferences-set', undefined],
    ['POST', '/api/user/dismiss-upgrade-notification', undefined],
  ];
  it.each(routes)('%s %s answers 401 without a session', async (method, url, payload) => {
    const res = await call(method, url, null, payload);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ code: 'UNAUTHORIZED', message: NOT_AUTHENTICATED });
  });

  it('answers 401 once the user is deleted', async () => {
    const { token, user } = await registerAndLogin(h.app);
    await h.db.deleteFrom('users').where('id', '=', user.id).execute();
    expect((await call('GET', '/api/user', token)).statusCode).toBe(401);
  });
});
