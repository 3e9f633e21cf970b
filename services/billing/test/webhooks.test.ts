import { INVALID_SIGNATURE_MESSAGE } from '@sendwell/contracts';
import { sql } from '@sendwell/db';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { payWith, planOf, startBillingHarness, WEBHOOK_SECRET, type BillingHarness } from './harness.js';

let h: BillingHarness;
beforeAll(async () => {
  h = await startBillingHarness();
});
afterAll(async () => {
  await h.close();
});

const signer = new Stripe('sk_test_signer');

/** Delivers a payload the way Stripe does: raw JSON bytes with a `Stripe-Signature` header. */
async function deliver(payload: string, opts: { secret?: string; timestamp?: number; signature?: string } = {}) {
  const signature =
    opts.signature ??
    signer.webhooks.generateTestHeaderString({ payload, secret: opts.secret ?? WEBHOOK_SECRET, timestamp: opts.timestamp ?? Math.floor(Date.now() / 1000) });
  return fetch(h.webhookUrl, { method: 'POST', headers: { 'content-type': 'application/json', 'stripe-signature': signature }, body: payload });
}

let serial = 0;
function event(type: string, object: Record<string, unknown>): string {
  serial += 1;
  return JSON.stringify({ id: `evt_test_${Date.now()}_${serial}`, object: 'event', type, created: Math.floor(Date.now() / 1000), data: { object }, api_version: '2026-10-28.endive', livemode: false });
}

/** A user whose standard subscription Stripe holds as paid, but whose plan here is still free (no webhook reached us). */
async function paidInStripeOnly() {
  const user = await h.user();
  const customer = await h.stripe.customers.create({ email: user.email });
  await h.db.updateTable('users').set({ stripeCustomerId: customer.id }).where('id', '=', user.id).execute();
  const price = (await h.stripe.prices.list({ lookup_keys: ['sendwell_standard_aud_monthly'] })).data[0]!;
  const sub = await h.stripe.subscriptions.create({ customer: customer.id, items: [{ price: price.id }], payment_behavior: 'default_incomplete', expand: ['latest_invoice.confirmation_secret'] });
  // The stand-in delivers its own events too; wait for them, then forget the plan they wrote.
  await payWith(h, (sub.latest_invoice as Stripe.Invoice).confirmation_secret!.client_secret, 'pm_card_visa');
  await h.settled();
  await h.db.updateTable('users').set({ planType: 'free' }).where('id', '=', user.id).execute();
  return { user, customer: customer.id, subscription: await h.stripe.subscriptions.retrieve(sub.id) };
}

beforeAll(async () => {
  // The catalogue exists once a first subscription was asked for.
  const user = await h.user();
  await h.app.inject({ method: 'POST', url: '/api/subscription', headers: await h.auth(user), payload: { plan: 'basic' } });
});

describe('POST /api/webhooks/stripe', () => {
  it('applies a signed event by reading the subscription from Stripe', async () => {
    const { user, subscription } = await paidInStripeOnly();
    const res = await deliver(event('customer.subscription.updated', subscription as unknown as Record<string, unknown>));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ received: true });
    expect((await planOf(h, user.id)).planType).toBe('standard');
  });

  it('refuses a bad signature, another secret’s, a stale one and none, changing nothing', async () => {
    const { user, subscription } = await paidInStripeOnly();
    const payload = event('customer.subscription.updated', subscription as unknown as Record<string, unknown>);
    const stale = Math.floor(Date.now() / 1000) - 301;
    for (const res of [
      await deliver(payload, { signature: 't=1,v1=deadbeef' }),
      await deliver(payload, { secret: 'whsec_someone_else' }),
      await deliver(payload, { timestamp: stale }),
      await fetch(h.webhookUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: payload }),
    ]) {
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ message: INVALID_SIGNATURE_MESSAGE });
    }
    // A body changed after signing fails too.
    const signed = signer.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET });
    expect((await deliver(payload.replace('"livemode":false', '"livemode":true'), { signature: signed })).status).toBe(400);
    expect((await planOf(h, user.id)).planType).toBe('free');
    // Within the 300 s tolerance is fine.
    expect((await deliver(payload, { timestamp: Math.floor(Date.now() / 1000) - 240 })).status).toBe(200);
    expect((await planOf(h, user.id)).planType).toBe('standard');
  });

  it('processes a replayed event once', async () => {
    const { user, subscription } = await paidInStripeOnly();
    const payload = event('customer.subscription.updated', subscription as unknown as Record<string, unknown>);
    expect((await deliver(payload)).status).toBe(200);
    await h.db.updateTable('users').set({ planType: 'free' }).where('id', '=', user.id).execute();
    expect((await deliver(payload)).status).toBe(200);
    // The replay was acknowledged and did nothing: the plan written by hand stays.
    expect((await planOf(h, user.id)).planType).toBe('free');
    const { id } = JSON.parse(payload) as { id: string };
    expect(await h.db.selectFrom('stripeEvents').select('type').where('id', '=', id).execute()).toEqual([{ type: 'customer.subscription.updated' }]);
  });

  it('has one effect for 10 concurrent deliveries of one event', async () => {
    const { user, subscription } = await paidInStripeOnly();
    const payload = event('invoice.paid', { id: 'in_concurrent', object: 'invoice', customer: subscription.customer });
    // Count the plan writes: a trigger-free way is to watch updated_at move once.
    const before = (await h.db.selectFrom('users').select('updatedAt').where('id', '=', user.id).executeTakeFirstOrThrow()).updatedAt;
    const answers = await Promise.all(Array.from({ length: 10 }, () => deliver(payload)));
    expect(answers.map((r) => r.status)).toEqual(Array(10).fill(200));
    const { id } = JSON.parse(payload) as { id: string };
    const { count } = (await sql<{ count: number }>`select count(*)::int as count from stripe_events where id = ${id}`.execute(h.db)).rows[0]!;
    expect(count).toBe(1);
    const after = (await h.db.selectFrom('users').select(['updatedAt', 'planType']).where('id', '=', user.id).executeTakeFirstOrThrow());
    expect(after.planType).toBe('standard');
    expect(after.updatedAt.getTime()).toBeGreaterThan(before.getTime());
  });

  it('is order-independent: an `updated` arriving before its `created` leaves the state Stripe has', async () => {
    const { user, subscription } = await paidInStripeOnly();
    const created = { ...subscription, status: 'incomplete' } as unknown as Record<string, unknown>;
    expect((await deliver(event('customer.subscription.updated', subscription as unknown as Record<string, unknown>))).status).toBe(200);
    // The older `created` copy says incomplete; Stripe says active, and Stripe wins.
    expect((await deliver(event('customer.subscription.created', created))).status).toBe(200);
    expect((await planOf(h, user.id)).planType).toBe('standard');
  });

  it('acknowledges and ignores an unknown event type, and one of a customer no user has', async () => {
    const res = await deliver(event('radar.early_fraud_warning.created', { id: 'issfr_1', object: 'radar.early_fraud_warning' }));
    expect(res.status).toBe(200);
    const stranger = await deliver(event('customer.subscription.updated', { id: 'sub_nobody', object: 'subscription', customer: 'cus_nobody' }));
    expect(stranger.status).toBe(200);
  });

  it('answers 400, not 500, to a body that is not an event', async () => {
    for (const body of ['not json', '{}', '']) {
      const res = await deliver(body);
      expect(res.status).toBe(400);
    }
  });
});
