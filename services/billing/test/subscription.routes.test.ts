import {
  NO_SUBSCRIPTION_MESSAGE,
  PAID_PLAN_REQUIRED_MESSAGE,
  PAYMENT_METHOD_NOT_FOUND_MESSAGE,
  PLAN_UPDATED_MESSAGE,
  SAME_PLAN_MESSAGE,
  type BillingHistoryAnswer,
  type CreateSubscriptionAnswer,
} from '@sendwell/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { payWith, planOf, startBillingHarness, type BillingHarness } from './harness.js';

let h: BillingHarness;
beforeAll(async () => {
  h = await startBillingHarness();
});
afterAll(async () => {
  await h.close();
});

type Json = Record<string, unknown>;
const post = async (url: string, headers: Record<string, string>, payload?: Json) => h.app.inject({ method: 'POST', url, headers, ...(payload ? { payload } : {}) });
const get = async (url: string, headers: Record<string, string>) => h.app.inject({ method: 'GET', url, headers });

/** A user who paid for `plan` with a good card, as the payment dialog does it. */
async function paidUser(plan: 'basic' | 'standard' | 'advanced' = 'standard', currency = 'AUD') {
  const user = await h.user({ currency });
  const headers = await h.auth(user);
  const res = await post('/api/subscription', headers, { plan });
  const { clientSecret } = res.json() as { clientSecret: string };
  await payWith(h, clientSecret, 'pm_card_visa');
  await h.settled();
  return { user, headers };
}

describe('POST /api/subscription', () => {
  it('answers a client secret for a new subscription, in the user’s currency, and leaves the plan free until paid', async () => {
    const user = await h.user({ currency: 'CAD' });
    const res = await post('/api/subscription', await h.auth(user), { plan: 'advanced' });
    expect(res.statusCode).toBe(200);
    const body = res.json() as { clientSecret: string; subscriptionId: string };
    expect(body.clientSecret).toMatch(/^pi_.+_secret_/);
    const sub = await h.stripe.subscriptions.retrieve(body.subscriptionId);
    expect(sub.items.data[0]!.price).toMatchObject({ lookup_key: 'sendwell_advanced_cad_monthly', unit_amount: 8900, currency: 'cad' });
    expect(await planOf(h, user.id)).toMatchObject({ planType: 'free', currencyLocked: false, stripeSubscriptionId: body.subscriptionId });
  });

  it('makes one customer however often it is called, and reuses a payment left unfinished for the same plan', async () => {
    const user = await h.user();
    const headers = await h.auth(user);
    const first = (await post('/api/subscription', headers, { plan: 'basic' })).json() as { clientSecret: string; subscriptionId: string };
    const again = (await post('/api/subscription', headers, { plan: 'basic' })).json() as { clientSecret: string; subscriptionId: string };
    expect(again).toEqual(first);
    const other = (await post('/api/subscription', headers, { plan: 'standard' })).json() as { subscriptionId: string };
    expect(other.subscriptionId).not.toBe(first.subscriptionId);
    expect((await h.stripe.subscriptions.retrieve(first.subscriptionId)).status).toBe('canceled');
    const { stripeCustomerId } = await planOf(h, user.id);
    const subs = await h.stripe.subscriptions.list({ customer: stripeCustomerId!, limit: 10 });
    expect(new Set(subs.data.map((s) => s.customer))).toEqual(new Set([stripeCustomerId]));
  });

  it('refuses a plan that is not for sale, and a missing one, with a message', async () => {
    const headers = await h.auth(await h.user());
    for (const payload of [{ plan: 'free' }, { plan: 'enterprise' }, {}, { plan: 3 }]) {
      const res = await post('/api/subscription', headers, payload);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED', message: 'Please choose one of the plans: basic, standard or advanced' });
    }
  });

  it('answers 401 without a session', async () => {
    expect((await post('/api/subscription', {}, { plan: 'basic' })).statusCode).toBe(401);
  });

  it('refuses the plan the user already pays for, and changes an existing subscription instead of making a second', async () => {
    const { user, headers } = await paidUser('basic');
    const same = await post('/api/subscription', headers, { plan: 'basic' });
    expect(same.statusCode).toBe(400);
    expect(same.json()).toMatchObject({ message: SAME_PLAN_MESSAGE });

    const upgrade = await post('/api/subscription', headers, { plan: 'advanced' });
    expect(upgrade.statusCode).toBe(200);
    const body = upgrade.json() as CreateSubscriptionAnswer;
    expect(body).toMatchObject({ type: 'subscription', subscriptionId: (await planOf(h, user.id)).stripeSubscriptionId });
    expect((await planOf(h, user.id)).planType).toBe('advanced');
  });
});

describe('POST /api/subscription/update', () => {
  it('after the payment, reads the paid plan from Stripe even before its webhook', async () => {
    const user = await h.user();
    const headers = await h.auth(user);
    const { clientSecret } = (await post('/api/subscription', headers, { plan: 'standard' })).json() as { clientSecret: string };
    await payWith(h, clientSecret, 'pm_card_visa');
    const res = await post('/api/subscription/update', headers, { plan: 'standard' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: PLAN_UPDATED_MESSAGE, planType: 'standard' });
    expect(await planOf(h, user.id)).toMatchObject({ planType: 'standard', currencyLocked: true });
    await h.settled();
  });

  it('upgrades at once, charging the difference for the rest of the period to the card on file', async () => {
    const { user, headers } = await paidUser('basic');
    const res = await post('/api/subscription/update', headers, { plan: 'advanced' });
    expect(res.json()).toEqual({ message: PLAN_UPDATED_MESSAGE, planType: 'advanced' });
    await h.settled();
    const { stripeCustomerId } = await planOf(h, user.id);
    const invoices = await h.stripe.invoices.list({ customer: stripeCustomerId!, limit: 10 });
    const proration = invoices.data.find((i) => i.billing_reason === 'subscription_update');
    // A$79 − A$19 for a period that has only just begun.
    expect(proration).toMatchObject({ status: 'paid', currency: 'aud' });
    expect(proration!.amount_paid).toBeGreaterThan(5990);
    expect(proration!.amount_paid).toBeLessThanOrEqual(6000);
  });

  it('keeps the current plan until the renewal when moving to a lower one, and can call that off', async () => {
    const { user, headers } = await paidUser('advanced');
    const res = await post('/api/subscription/update', headers, { plan: 'basic' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ planType: 'advanced', message: expect.stringMatching(/^Your plan changes to Basic Monitoring on \d{4}-\d{2}-\d{2}\. Until then you keep Advanced Monitoring\.$/) });
    expect((await planOf(h, user.id)).planType).toBe('advanced');

    const back = await post('/api/subscription/update', headers, { plan: 'advanced' });
    expect(back.json()).toEqual({ message: 'Your plan stays Advanced Monitoring.', planType: 'advanced' });
    const sub = await h.stripe.subscriptions.retrieve((await planOf(h, user.id)).stripeSubscriptionId!);
    expect(sub.items.data[0]!.price.lookup_key).toBe('sendwell_advanced_aud_monthly');
    await h.settled();
  });

  it('refuses a user with no subscription, and bad input', async () => {
    const headers = await h.auth(await h.user());
    const none = await post('/api/subscription/update', headers, { plan: 'basic' });
    expect(none.statusCode).toBe(400);
    expect(none.json()).toMatchObject({ message: NO_SUBSCRIPTION_MESSAGE });
    expect((await post('/api/subscription/update', headers, { plan: 'gold' })).statusCode).toBe(400);
    expect((await post('/api/subscription/update', {}, { plan: 'basic' })).statusCode).toBe(401);
  });

  it('answers 402 with Stripe’s message when the card declines an upgrade, and keeps the plan', async () => {
    const { user, headers } = await paidUser('basic');
    const { stripeCustomerId, stripeSubscriptionId } = await planOf(h, user.id);
    const declining = await h.stripe.paymentMethods.attach('pm_card_chargeDeclined', { customer: stripeCustomerId! });
    await h.stripe.subscriptions.update(stripeSubscriptionId!, { default_payment_method: declining.id });
    const res = await post('/api/subscription/update', headers, { plan: 'standard' });
    expect(res.statusCode).toBe(402);
    expect(res.json()).toMatchObject({ code: 'PAYMENT_FAILED', message: 'Your card was declined.' });
    await h.settled();
    expect((await planOf(h, user.id)).planType).toBe('basic');
    expect((await h.stripe.subscriptions.retrieve(stripeSubscriptionId!)).items.data[0]!.price.lookup_key).toBe('sendwell_basic_aud_monthly');
  });
});

describe('POST /api/subscription/cancel and GET /api/subscription/status', () => {
  it('cancels at the end of the period, keeping the plan, and says so in the status', async () => {
    const { user, headers } = await paidUser('standard');
    const before = (await get('/api/subscription/status', headers)).json() as { status: string; cancelAtPeriodEnd: boolean; currentPeriodEnd: string };
    expect(before).toMatchObject({ status: 'active', cancelAtPeriodEnd: false });
    expect(new Date(before.currentPeriodEnd).getTime()).toBeGreaterThan(Date.now() + 29 * 86_400_000);

    const res = await post('/api/subscription/cancel', headers);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      message: `Your subscription has been cancelled. You keep Standard Monitoring until ${before.currentPeriodEnd.slice(0, 10)}.`,
      cancelationDate: before.currentPeriodEnd,
    });
    expect((await get('/api/subscription/status', headers)).json()).toMatchObject({ cancelAtPeriodEnd: true, currentPeriodEnd: before.currentPeriodEnd });
    await h.settled();
    expect((await planOf(h, user.id)).planType).toBe('standard');
    // Twice is the same answer.
    expect((await post('/api/subscription/cancel', headers)).statusCode).toBe(200);
  });

  it('answers an empty status and refuses to cancel for a user without a subscription', async () => {
    const headers = await h.auth(await h.user());
    expect((await get('/api/subscription/status', headers)).json()).toEqual({ status: null, cancelAtPeriodEnd: false, currentPeriodEnd: null });
    const res = await post('/api/subscription/cancel', headers);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ message: NO_SUBSCRIPTION_MESSAGE });
    expect((await get('/api/subscription/status', {})).statusCode).toBe(401);
  });
});

describe('POST /api/sync-subscription', () => {
  it('repairs a plan that missed its webhook', async () => {
    const { user, headers } = await paidUser('advanced');
    await h.db.updateTable('users').set({ planType: 'free' }).where('id', '=', user.id).execute();
    const res = await post('/api/sync-subscription', headers);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ planType: 'advanced', subscriptionStatus: 'active' });
    expect((await planOf(h, user.id)).planType).toBe('advanced');
  });

  it('answers free for a user without one, and 401 without a session', async () => {
    const headers = await h.auth(await h.user());
    expect((await post('/api/sync-subscription', headers)).json()).toMatchObject({ planType: 'free', subscriptionStatus: null });
    expect((await post('/api/sync-subscription', {})).statusCode).toBe(401);
  });
});

describe('payment method: GET /api/payment-method, POST /api/setup-intent, POST /api/update-payment-method', () => {
  it('shows the card renewals use, and replaces it with a card confirmed through a setup intent', async () => {
    const { user, headers } = await paidUser('basic');
    expect((await get('/api/payment-method', headers)).json()).toMatchObject({ brand: 'visa', last4: '4242', expMonth: 12 });

    const setup = await post('/api/setup-intent', headers);
    expect(setup.statusCode).toBe(200);
    const { clientSecret } = setup.json() as { clientSecret: string };
    const confirmed = await h.stripe.setupIntents.confirm(clientSecret.split('_secret_')[0]!, { payment_method: 'pm_card_mastercard' });
    const res = await post('/api/update-payment-method', headers, { paymentMethodId: confirmed.payment_method as string });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ paymentMethod: { brand: 'mastercard', last4: '4444' } });
    expect((await get('/api/payment-method', headers)).json()).toMatchObject({ brand: 'mastercard', last4: '4444' });
    const sub = await h.stripe.subscriptions.retrieve((await planOf(h, user.id)).stripeSubscriptionId!);
    expect(sub.default_payment_method).toBe(confirmed.payment_method);
    await h.settled();
  });

  it('never takes another customer’s card', async () => {
    const a = await paidUser('basic');
    const b = await paidUser('basic');
    const aCardId = (await h.stripe.subscriptions.retrieve((await planOf(h, a.user.id)).stripeSubscriptionId!)).default_payment_method as string;
    expect(aCardId).toMatch(/^pm_/);
    const res = await post('/api/update-payment-method', b.headers, { paymentMethodId: aCardId });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ message: PAYMENT_METHOD_NOT_FOUND_MESSAGE });
    const unknown = await post('/api/update-payment-method', b.headers, { paymentMethodId: 'pm_doesnotexist' });
    expect(unknown.statusCode).toBe(404);
  });

  it('is for paid plans only, and checks the id', async () => {
    const headers = await h.auth(await h.user());
    for (const res of [await get('/api/payment-method', headers), await post('/api/setup-intent', headers), await post('/api/update-payment-method', headers, { paymentMethodId: 'pm_123' })]) {
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ message: PAID_PLAN_REQUIRED_MESSAGE });
    }
    const paid = await paidUser('basic');
    for (const payload of [{}, { paymentMethodId: 'card_123' }, { paymentMethodId: 'pm_<script>' }, { paymentMethodId: 7 }]) {
      expect((await post('/api/update-payment-method', paid.headers, payload)).statusCode).toBe(400);
    }
    expect((await get('/api/payment-method', {})).statusCode).toBe(401);
  });
});

describe('GET /api/billing/config', () => {
  it('answers the publishable key to a signed-in user, and 401 to anyone else', async () => {
    const res = await get('/api/billing/config', await h.auth(await h.user()));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ publishableKey: h.deps.env.STRIPE_PUBLISHABLE_KEY });
    expect((await get('/api/billing/config', {})).statusCode).toBe(401);
  });
});

describe('GET /api/billing/history', () => {
  it('lists the user’s own invoices newest first, in Stripe’s units, with their pages', async () => {
    const { headers } = await paidUser('standard', 'USD');
    const other = await paidUser('basic');
    const res = await get('/api/billing/history', headers);
    expect(res.statusCode).toBe(200);
    const invoices = res.json() as BillingHistoryAnswer;
    expect(invoices).toHaveLength(1);
    expect(invoices[0]).toMatchObject({ status: 'paid', amount_paid: 2600, currency: 'usd', number: expect.stringMatching(/^SW-/) });
    expect(invoices[0]!.hosted_invoice_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/invoices\/in_/);
    expect(invoices[0]!.invoice_pdf).toMatch(/\/pdf$/);
    const theirs = (await get('/api/billing/history', other.headers)).json() as BillingHistoryAnswer;
    expect(theirs.map((i) => i.id)).not.toContain(invoices[0]!.id);
  });

  it('hands out an invoice’s PDF to its owner only, named after its number', async () => {
    const { headers } = await paidUser('basic');
    const other = await paidUser('basic');
    const [invoice] = (await get('/api/billing/history', headers)).json() as BillingHistoryAnswer;
    const res = await get(`/api/billing/invoices/${invoice!.id}/pdf`, headers);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="invoice-${invoice!.number}.pdf"`);
    expect(res.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    for (const [url, status] of [
      [`/api/billing/invoices/${invoice!.id}/pdf`, 404],
      ['/api/billing/invoices/in_doesnotexist/pdf', 404],
      ['/api/billing/invoices/not-an-invoice/pdf', 400],
    ] as const) {
      expect((await get(url, other.headers)).statusCode).toBe(status);
    }
    expect((await get(`/api/billing/invoices/${invoice!.id}/pdf`, {})).statusCode).toBe(401);
  });

  it('answers an empty list before the first payment, and 401 without a session', async () => {
    expect((await get('/api/billing/history', await h.auth(await h.user()))).json()).toEqual([]);
    expect((await get('/api/billing/history', {})).statusCode).toBe(401);
  });
});
