import { ACCOUNT_DELETED_MESSAGE, ACCOUNT_DELETION_UNAVAILABLE, DELETE_ACCOUNT_WRONG_PASSWORD, NOT_AUTHENTICATED, PASSWORD_CONFIRMATION_REQUIRED } from '@sendwell/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, login, registerAndLogin, startHarness, tokenCookie, type Harness } from './fixtures.js';
import { stripeGet, subscribe } from './paying.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({}, { billing: true });
});
afterAll(() => h.close());

const deleteAccount = (headers: Record<string, string>, payload?: object) =>
  h.app.inject({ method: 'DELETE', url: '/api/user', headers, ...(payload ? { payload } : {}) });
const me = (token: string) => h.app.inject({ url: '/api/user', headers: bearer(token) });
const count = async (table: 'users' | 'sessions' | 'domains', userId: number) =>
  (await h.db.selectFrom(table).select((eb) => eb.fn.countAll<string>().as('n')).where(table === 'users' ? 'id' : 'userId', '=', userId).executeTakeFirstOrThrow()).n;

describe('DELETE /api/user', () => {
  it('deletes the account and what it owns once the password is confirmed, and every session dies with it', async () => {
    const { token, user, password } = await registerAndLogin(h.app);
    const other = (await login(h.app, user.email, password)).json().token as string;
    await h.db.insertInto('domains').values({ userId: user.id, name: 'owned.example.com' }).execute();
    expect((await me(token)).statusCode).toBe(200); // cached by the auth plugin from here on

    const res = await deleteAccount(bearer(token), { password });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: ACCOUNT_DELETED_MESSAGE });
    expect(tokenCookie(res.headers['set-cookie'])?.value).toBe('');

    expect([await count('users', user.id), await count('sessions', user.id), await count('domains', user.id)]).toEqual(['0', '0', '0']);
    for (const t of [token, other]) {
      const after = await me(t);
      expect(after.statusCode).toBe(401);
      expect(after.json()).toMatchObject({ code: 'UNAUTHORIZED', message: NOT_AUTHENTICATED });
    }
    expect((await login(h.app, user.email, password)).statusCode).toBe(401);
  });

  it('keeps the account on a wrong password, with 400 and the message (the session stays valid)', async () => {
    const { token, user } = await registerAndLogin(h.app);
    const res = await deleteAccount(bearer(token), { password: 'not-my-password' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED', message: DELETE_ACCOUNT_WRONG_PASSWORD });
    expect(await count('users', user.id)).toBe('1');
    expect((await me(token)).statusCode).toBe(200);
  });

  it('answers 400 with the message for a missing body or password, never 500', async () => {
    const { token } = await registerAndLogin(h.app);
    for (const payload of [undefined, {}, { password: '' }]) {
      const res = await deleteAccount(bearer(token), payload);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED', message: PASSWORD_CONFIRMATION_REQUIRED });
    }
    expect((await me(token)).statusCode).toBe(200);
  });

  it('answers 401 without a session', async () => {
    const res = await deleteAccount({}, { password: 'whatever-it-is' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ code: 'UNAUTHORIZED', message: NOT_AUTHENTICATED });
  });

  it('ends the subscription at once and deletes the Stripe customer before the rows go', async () => {
    const { token, user, password } = await registerAndLogin(h.app);
    const { customerId, subscriptionId } = await subscribe(h, user.id, token);

    const res = await deleteAccount(bearer(token), { password });
    expect(res.statusCode).toBe(200);
    expect(await stripeGet(h, `/v1/subscriptions/${subscriptionId}`)).toMatchObject({ id: subscriptionId, object: 'subscription', status: 'canceled' });
    expect(await stripeGet(h, `/v1/customers/${customerId}`)).toEqual({ id: customerId, object: 'customer', deleted: true });
    expect(await count('users', user.id)).toBe('0');
  });

  // Last: it stops the stand-in, so billing's Stripe address becomes a closed port.
  it('deletes nothing when Stripe cannot be reached, and says so (503)', async () => {
    const { token, user, password } = await registerAndLogin(h.app);
    const { customerId, subscriptionId } = await subscribe(h, user.id, token);
    await h.billing!.stripe.close();

    const res = await deleteAccount(bearer(token), { password });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE', message: ACCOUNT_DELETION_UNAVAILABLE });
    expect([await count('users', user.id), await count('sessions', user.id)]).toEqual(['1', '1']);
    const row = await h.db.selectFrom('users').select(['stripeCustomerId', 'stripeSubscriptionId']).where('id', '=', user.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ stripeCustomerId: customerId, stripeSubscriptionId: subscriptionId });
    expect((await me(token)).statusCode).toBe(200);
  });
});
