import { PAYMENTS_UNAVAILABLE_MESSAGE } from '@sendwell/contracts';
import { createLogger } from '@sendwell/server-kit';
import { freePort } from '@sendwell/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { createDeps } from '../src/deps.js';
import { loadEnv } from '../src/env.js';
import { payWith, planOf, SECRET_KEY, startBillingHarness, WEBHOOK_SECRET, type BillingHarness } from './harness.js';

let h: BillingHarness;
beforeAll(async () => {
  h = await startBillingHarness();
});
afterAll(async () => {
  await h.close();
});

const close = async (headers: Record<string, string>) => h.app.inject({ method: 'DELETE', url: '/internal/billing-account', headers });

async function paidUser() {
  const user = await h.user();
  const headers = await h.auth(user);
  const { clientSecret } = (await h.app.inject({ method: 'POST', url: '/api/subscription', headers, payload: { plan: 'standard' } })).json() as { clientSecret: string };
  await payWith(h, clientSecret, 'pm_card_visa');
  await h.settled();
  const ids = await planOf(h, user.id);
  expect(ids).toMatchObject({ planType: 'standard', stripeCustomerId: expect.any(String), stripeSubscriptionId: expect.any(String) });
  return { user, headers, customerId: ids.stripeCustomerId!, subscriptionId: ids.stripeSubscriptionId! };
}

describe('DELETE /internal/billing-account (account deletion, asked by the auth service)', () => {
  it('cancels the subscription at once and deletes the Stripe customer, then forgets both ids', async () => {
    const { user, headers, customerId, subscriptionId } = await paidUser();
    const res = await close(headers);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true });

    const subscription = await h.stripe.subscriptions.retrieve(subscriptionId);
    expect(subscription).toMatchObject({ id: subscriptionId, status: 'canceled', cancel_at_period_end: false });
    expect(await h.stripe.customers.retrieve(customerId)).toEqual({ id: customerId, object: 'customer', deleted: true });
    await h.settled();
    expect(await planOf(h, user.id)).toMatchObject({ stripeCustomerId: null, stripeSubscriptionId: null });
  });

  it('is done at once for a user who never paid, and done again when repeated', async () => {
    const user = await h.user();
    const headers = await h.auth(user);
    expect((await close(headers)).statusCode).toBe(200);
    expect((await close(headers)).statusCode).toBe(200);
  });

  it('answers 401 without a session', async () => {
    expect((await close({})).statusCode).toBe(401);
  });

  it('answers 503 and keeps the ids when Stripe cannot be reached, so the account is not deleted half-way', async () => {
    const { user, customerId, subscriptionId } = await paidUser();
    const closedPort = await freePort();
    const env = loadEnv({
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      DATABASE_URL: h.testDb.url,
      STRIPE_SECRET_KEY: SECRET_KEY,
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_API_URL: `http://127.0.0.1:${closedPort}`,
    });
    const deps = createDeps(env, createLogger('billing-test', 'silent'));
    const unreachable = await buildApp(deps);
    try {
      // Both apps sign with the same development JWT secret, so the harness's session is valid here too.
      const res = await unreachable.inject({ method: 'DELETE', url: '/internal/billing-account', headers: await h.auth(user) });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE', message: PAYMENTS_UNAVAILABLE_MESSAGE });
    } finally {
      await unreachable.close();
      await deps.close();
    }
    expect(await planOf(h, user.id)).toMatchObject({ stripeCustomerId: customerId, stripeSubscriptionId: subscriptionId });
    expect((await h.stripe.subscriptions.retrieve(subscriptionId)).status).toBe('active');
  });
});

