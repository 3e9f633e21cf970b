import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStripeStandIn, type StripeStandIn } from '../src/index.js';

const WEBHOOK_SECRET = 'whsec_test_standin';

/** A real webhook receiver that keeps only events whose signature `stripe.webhooks` accepts. */
async function startReceiver(stripe: Stripe): Promise<{ server: Server; url: string; events: Stripe.Event[]; rejected: number }> {
  const receiver = { events: [] as Stripe.Event[], rejected: 0 };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      try {
        const signature = req.headers['stripe-signature'] as string;
        receiver.events.push(stripe.webhooks.constructEvent(Buffer.concat(chunks), signature, WEBHOOK_SECRET));
        res.writeHead(200).end();
      } catch {
        receiver.rejected += 1;
        res.writeHead(400).end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks/stripe`;
  return Object.assign(receiver, { server, url });
}

const client = (port: number, key = 'sk_test_sendwell'): Stripe =>
  new Stripe(key, { host: '127.0.0.1', port, protocol: 'http', maxNetworkRetries: 0 });

describe('Stripe stand-in, driven by the real stripe client', () => {
  let standIn: StripeStandIn;
  let stripe: Stripe;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let price: Stripe.Price;

  beforeAll(async () => {
    receiver = await startReceiver(new Stripe('sk_test_receiver'));
    standIn = await startStripeStandIn({ port: 0, webhookUrl: receiver.url, webhookSecret: WEBHOOK_SECRET });
    stripe = client(standIn.port);
    const product = await stripe.products.create({ name: 'Sendwell Pro', metadata: { plan: 'pro' } });
    price = await stripe.prices.create({
      product: product.id,
      currency: 'usd',
      unit_amount: 2900,
      recurring: { interval: 'month' },
      lookup_key: 'pro_monthly',
    });
    await stripe.prices.create({ product: product.id, currency: 'usd', unit_amount: 29000, recurring: { interval: 'year' }, lookup_key: 'pro_yearly' });
  });

  afterAll(async () => {
    await standIn.close();
    receiver.server.close();
  });

  async function subscribe(): Promise<{ customer: Stripe.Customer; subscription: Stripe.Subscription; intent: Stripe.PaymentIntent }> {
    const customer = await stripe.customers.create({ email: 'owner@example.test', metadata: { org: 'org_1' } });
    const subscription = await stripe.subscriptions.create({
      customer: customer.id,
      items: [{ price: price.id }],
      payment_behavior: 'default_incomplete',
      expand: ['latest_invoice.payment_intent'],
    });
    const invoice = subscription.latest_invoice as Stripe.Invoice & { payment_intent: Stripe.PaymentIntent };
    return { customer, subscription, intent: invoice.payment_intent };
  }

  it('finds prices by lookup key and only the active ones', async () => {
    const prices = await stripe.prices.list({ lookup_keys: ['pro_monthly'], active: true });
    expect(prices.object).toBe('list');
    expect(prices.data.map((p) => [p.id, p.unit_amount, p.recurring?.interval])).toEqual([[price.id, 2900, 'month']]);
    expect((await stripe.prices.list({ lookup_keys: ['nope'] })).data).toEqual([]);
  });

  it('creates an incomplete subscription whose first invoice is paid by confirming with pm_card_visa', async () => {
    const { customer, subscription, intent } = await subscribe();
    expect(subscription.id).toMatch(/^sub_/);
    expect(subscription.status).toBe('incomplete');
    expect(subscription.items.data[0]?.current_period_end).toBeGreaterThan(subscription.items.data[0]!.current_period_start);
    expect(intent.id).toMatch(/^pi_/);
    expect(intent.client_secret).toMatch(new RegExp(`^${intent.id}_secret_`));
    expect(intent.amount).toBe(2900);

    const confirmed = await stripe.paymentIntents.confirm(intent.id, { payment_method: 'pm_card_visa' });
    expect(confirmed.status).toBe('succeeded');

    const active = await stripe.subscriptions.retrieve(subscription.id, { expand: ['default_payment_method'] });
    expect(active.status).toBe('active');
    const card = active.default_payment_method as Stripe.PaymentMethod;
    expect([card.card?.brand, card.card?.last4, card.customer]).toEqual(['visa', '4242', customer.id]);

    const invoices = await stripe.invoices.list({ customer: customer.id });
    const invoice = invoices.data[0]!;
    expect([invoice.status, invoice.amount_paid, invoice.amount_due, invoice.currency]).toEqual(['paid', 2900, 2900, 'usd']);
    expect(invoice.number).toMatch(/^SW-\d{4}$/);
    const pdf = await fetch(invoice.invoice_pdf!);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expect((await pdf.text()).startsWith('%PDF-1.4')).toBe(true);

    const methods = await stripe.paymentMethods.list({ customer: customer.id });
    expect(methods.data.map((m) => m.id)).toEqual([card.id]);
  });

  it('declines pm_card_chargeDeclined with a card_error and leaves the subscription incomplete', async () => {
    const { subscription, intent } = await subscribe();
    const error = await stripe.paymentIntents.confirm(intent.id, { payment_method: 'pm_card_chargeDeclined' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Stripe.errors.StripeCardError);
    expect((error as Stripe.errors.StripeCardError).code).toBe('card_declined');
    expect((error as Stripe.errors.StripeCardError).statusCode).toBe(402);
    expect((await stripe.paymentIntents.retrieve(intent.id)).status).toBe('requires_payment_method');
    expect((await stripe.subscriptions.retrieve(subscription.id)).status).toBe('incomplete');
  });

  it('updates the price, cancels at period end and cancels outright', async () => {
    const { subscription, intent } = await subscribe();
    await stripe.paymentIntents.confirm(intent.id, { payment_method: 'pm_card_visa' });
    const [yearly] = (await stripe.prices.list({ lookup_keys: ['pro_yearly'] })).data;
    const updated = await stripe.subscriptions.update(subscription.id, {
      items: [{ id: subscription.items.data[0]!.id, price: yearly!.id }],
      proration_behavior: 'none',
      cancel_at_period_end: true,
    });
    expect([updated.items.data[0]?.price.id, updated.cancel_at_period_end]).toEqual([yearly!.id, true]);
    expect((await stripe.subscriptions.cancel(subscription.id)).status).toBe('canceled');
  });

  it('cancels a subscription outright in Stripe’s wire format: DELETE /v1/subscriptions/{id}', async () => {
    const { subscription, intent } = await subscribe();
    await stripe.paymentIntents.confirm(intent.id, { payment_method: 'pm_card_visa' });
    const canceled = await stripe.subscriptions.cancel(subscription.id);
    expect(canceled).toMatchObject({ id: subscription.id, object: 'subscription', status: 'canceled' });
    expect(canceled.canceled_at).toEqual(expect.any(Number));
    expect((await stripe.subscriptions.retrieve(subscription.id)).status).toBe('canceled');
  });

  it('deletes a customer, ending its subscriptions, and keeps only a deleted stub: DELETE /v1/customers/{id}', async () => {
    const { customer, subscription, intent } = await subscribe();
    await stripe.paymentIntents.confirm(intent.id, { payment_method: 'pm_card_visa' });
    const deleted = await stripe.customers.del(customer.id);
    expect(deleted).toEqual({ id: customer.id, object: 'customer', deleted: true });
    expect(await stripe.customers.retrieve(customer.id)).toEqual({ id: customer.id, object: 'customer', deleted: true });
    expect((await stripe.subscriptions.retrieve(subscription.id)).status).toBe('canceled');
    await expect(stripe.customers.del(customer.id)).rejects.toMatchObject({ statusCode: 404, code: 'resource_missing' });
    await standIn.deliveries();
    const types = receiver.events.filter((e) => (e.data.object as { id: string }).id === customer.id).map((e) => e.type);
    expect(types).toContain('customer.deleted');
  });

  it('saves a card through a setup intent and makes it the customer default', async () => {
    const customer = await stripe.customers.create({ email: 'setup@example.test' });
    const setup = await stripe.setupIntents.create({ customer: customer.id, usage: 'off_session' });
    const done = await stripe.setupIntents.confirm(setup.id, { payment_method: 'pm_card_mastercard' });
    expect(done.status).toBe('succeeded');
    const updated = await stripe.customers.update(customer.id, {
      invoice_settings: { default_payment_method: done.payment_method as string },
      expand: ['invoice_settings.default_payment_method'],
    });
    const card = updated.invoice_settings.default_payment_method as Stripe.PaymentMethod;
    expect(card.card?.last4).toBe('4444');
  });

  it('renews on a test clock, goes past_due on a declined renewal, then cancels', async () => {
    const clock = await stripe.testHelpers.testClocks.create({ frozen_time: 1_800_000_000 });
    const customer = await stripe.customers.create({ email: 'clock@example.test', test_clock: clock.id });
    const created = await stripe.subscriptions.create({
      customer: customer.id,
      items: [{ price: price.id }],
      payment_behavior: 'default_incomplete',
      expand: ['latest_invoice.payment_intent'],
    });
    const first = (created.latest_invoice as Stripe.Invoice & { payment_intent: Stripe.PaymentIntent }).payment_intent;
    await stripe.paymentIntents.confirm(first.id, { payment_method: 'pm_card_visa' });
    const periodEnd = created.items.data[0]!.current_period_end;
    expect(created.items.data[0]!.current_period_start).toBe(1_800_000_000);

    await stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: periodEnd + 60 });
    const renewed = await stripe.subscriptions.retrieve(created.id);
    expect([renewed.status, renewed.items.data[0]!.current_period_start]).toEqual(['active', periodEnd]);
    const invoices = await stripe.invoices.list({ customer: customer.id });
    expect(invoices.data.map((i) => [i.status, i.billing_reason])).toEqual([
      ['paid', 'subscription_cycle'],
      ['paid', 'subscription_create'],
    ]);

    await stripe.subscriptions.update(created.id, { default_payment_method: 'pm_card_chargeDeclined' });
    const secondEnd = renewed.items.data[0]!.current_period_end;
    await stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: secondEnd + 60 });
    expect((await stripe.subscriptions.retrieve(created.id)).status).toBe('past_due');
    const [unpaid] = (await stripe.invoices.list({ customer: customer.id })).data;
    expect([unpaid?.status, unpaid?.amount_paid]).toEqual(['open', 0]);

    const thirdEnd = secondEnd + (secondEnd - periodEnd);
    await stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: thirdEnd + 60 });
    expect((await stripe.subscriptions.retrieve(created.id)).status).toBe('canceled');
    await standIn.deliveries();
    const types = receiver.events
      .filter((e) => JSON.stringify(e.data.object).includes(created.id))
      .map((e) => e.type);
    expect(types).toContain('invoice.payment_failed');
    expect(types.at(-1)).toBe('customer.subscription.deleted');
  });

  it('rejects a key that is not sk_test_ with a 401', async () => {
    const error = await client(standIn.port, 'sk_live_nope').customers.create({}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Stripe.errors.StripeAuthenticationError);
  });

  it('lets a publishable key confirm an intent, as Stripe.js does, only with that intent’s client secret', async () => {
    const { intent } = await subscribe();
    const confirm = (params: Record<string, string>) =>
      fetch(`${standIn.url}/v1/payment_intents/${intent.id}/confirm`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'http://app.test' },
        body: new URLSearchParams(params),
      });
    const wrongSecret = await confirm({ key: 'pk_test_web', client_secret: `${intent.id}_secret_wrong`, payment_method: 'pm_card_visa' });
    expect(wrongSecret.status).toBe(401);
    const paid = await confirm({ key: 'pk_test_web', client_secret: intent.client_secret!, payment_method: 'pm_card_visa' });
    expect(paid.status).toBe(200);
    expect(paid.headers.get('access-control-allow-origin')).toBe('*');
    expect(await paid.json()).toMatchObject({ id: intent.id, status: 'succeeded' });
    // Anything else stays behind the secret key.
    const customers = await fetch(`${standIn.url}/v1/customers`, { method: 'POST', body: new URLSearchParams({ key: 'pk_test_web' }) });
    expect(customers.status).toBe(401);
  });

  it('answers a missing object with resource_missing', async () => {
    const error = await stripe.customers.retrieve('cus_missing').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect([(error as Stripe.errors.StripeError).code, (error as Stripe.errors.StripeError).statusCode]).toEqual(['resource_missing', 404]);
  });

  it('sends every event signed, verifiable by stripe.webhooks.constructEvent, and serves them back', async () => {
    const { subscription, intent } = await subscribe();
    await stripe.paymentIntents.confirm(intent.id, { payment_method: 'pm_card_visa' });
    await standIn.deliveries();
    expect(receiver.rejected).toBe(0);
    const forThis = receiver.events.filter((e) => JSON.stringify(e.data.object).includes(subscription.id) || (e.data.object as { id: string }).id === intent.id);
    expect(forThis.map((e) => e.type)).toEqual(['customer.subscription.created', 'payment_intent.succeeded', 'invoice.paid', 'customer.subscription.updated']);
    const last = forThis.at(-1)!;
    expect((await stripe.events.retrieve(last.id)).type).toBe('customer.subscription.updated');
    expect((await stripe.events.list({ type: 'invoice.paid' })).data.length).toBeGreaterThan(0);
  });

  it('retries a webhook the receiver answered with a non-2xx', async () => {
    const attempts: string[] = [];
    const flaky = createServer((req, res) => {
      attempts.push(String(req.headers['stripe-signature']));
      res.writeHead(attempts.length === 1 ? 503 : 200).end();
    });
    await new Promise<void>((resolve) => flaky.listen(0, '127.0.0.1', resolve));
    const other = await startStripeStandIn({
      port: 0,
      webhookUrl: `http://127.0.0.1:${(flaky.address() as AddressInfo).port}/`,
      webhookSecret: WEBHOOK_SECRET,
    });
    try {
      const setup = await client(other.port).setupIntents.create({});
      await client(other.port).setupIntents.confirm(setup.id, { payment_method: 'pm_card_visa' });
      await other.deliveries();
      expect(attempts).toHaveLength(2);
      expect(attempts[1]).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    } finally {
      await other.close();
      flaky.close();
    }
  });
});
