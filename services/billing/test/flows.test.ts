import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { payWith, planOf, startBillingHarness, type BillingHarness } from './harness.js';

let h: BillingHarness;
beforeAll(async () => {
  h = await startBillingHarness();
});
afterAll(async () => {
  await h.close();
});

const DAY = 86_400;

/** A free user whose Stripe customer runs on a test clock, with `domains` domains added a minute apart. */
async function userOnTestClock(domains = 1) {
  const clock = await h.stripe.testHelpers.testClocks.create({ frozen_time: Math.floor(Date.now() / 1000) });
  const customer = await h.stripe.customers.create({ test_clock: clock.id, email: 'clock@example.com' });
  const user = await h.user({ customer: customer.id });
  for (let i = 0; i < domains; i++) {
    await h.db
      .insertInto('domains')
      .values({ userId: user.id, name: `flow${i}-${user.id}.example`, createdAt: new Date(Date.now() - (domains - i) * 60_000) })
      .execute();
  }
  const headers = await h.auth(user);
  const advance = async (to: number) => {
    await h.stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: to });
    await h.settled();
  };
  return { user, headers, clock, advance };
}

async function subscribeAndPay(headers: Record<string, string>, plan: string, card: 'pm_card_visa' | 'pm_card_chargeDeclined' = 'pm_card_visa') {
  const res = await h.app.inject({ method: 'POST', url: '/api/subscription', headers, payload: { plan } });
  const { clientSecret, subscriptionId } = res.json() as { clientSecret: string; subscriptionId: string };
  await payWith(h, clientSecret, card);
  await h.settled();
  return subscriptionId;
}

const domainsOf = (userId: number) =>
  h.db.selectFrom('domains').select(['name', 'nextScanAt', 'scanPaused']).where('userId', '=', userId).orderBy('createdAt').execute();

const periodEnd = async (subscriptionId: string) => (await h.stripe.subscriptions.retrieve(subscriptionId)).items.data[0]!.current_period_end;

describe('billing flows against the Stripe stand-in, with its webhooks', () => {
  it('free → pays for standard → standard, currency locked, domains scheduled at once', async () => {
    const { user, headers } = await userOnTestClock(2);
    expect((await domainsOf(user.id)).every((d) => d.nextScanAt === null)).toBe(true);
    await subscribeAndPay(headers, 'standard');
    expect(await planOf(h, user.id)).toMatchObject({ planType: 'standard', currency: 'AUD', currencyLocked: true });
    const domains = await domainsOf(user.id);
    expect(domains.every((d) => !d.scanPaused && d.nextScanAt !== null && d.nextScanAt.getTime() <= Date.now() + 1000)).toBe(true);
  });

  it('a declined card leaves the user free, with the card error Stripe.js shows', async () => {
    const { user, headers } = await userOnTestClock();
    await expect(subscribeAndPay(headers, 'standard', 'pm_card_chargeDeclined')).rejects.toMatchObject({ code: 'card_declined', message: 'Your card was declined.' });
    await h.settled();
    expect(await planOf(h, user.id)).toMatchObject({ planType: 'free', currencyLocked: false });
    expect((await domainsOf(user.id))[0]!.nextScanAt).toBeNull();
  });

  it('a downgrade waits for the renewal, which charges the lower price; domains above the new limit pause', async () => {
    const { user, headers, advance } = await userOnTestClock(4);
    const sub = await subscribeAndPay(headers, 'advanced');
    await h.app.inject({ method: 'POST', url: '/api/subscription/update', headers, payload: { plan: 'basic' } });
    await h.settled();
    expect((await planOf(h, user.id)).planType).toBe('advanced');

    await advance((await periodEnd(sub)) + 60);
    expect((await planOf(h, user.id)).planType).toBe('basic');
    const renewal = (await h.stripe.invoices.list({ subscription: sub, limit: 5 })).data.find((i) => i.billing_reason === 'subscription_cycle');
    expect(renewal).toMatchObject({ status: 'paid', amount_paid: 1900 });
    // Basic takes two domains: the two oldest keep their scans, the newest two pause.
    expect((await domainsOf(user.id)).map((d) => d.scanPaused)).toEqual([false, false, true, true]);
  });

  it('a cancelled subscription keeps its plan to the period end, then the user is free and scans stop', async () => {
    const { user, headers, advance } = await userOnTestClock(1);
    const sub = await subscribeAndPay(headers, 'basic');
    await h.app.inject({ method: 'POST', url: '/api/subscription/cancel', headers });
    await advance((await periodEnd(sub)) - DAY);
    expect((await planOf(h, user.id)).planType).toBe('basic');
    await advance((await periodEnd(sub)) + 60);
    expect((await planOf(h, user.id)).planType).toBe('free');
    expect((await domainsOf(user.id))[0]!.nextScanAt).toBeNull();
    expect((await h.app.inject({ method: 'GET', url: '/api/subscription/status', headers })).json()).toMatchObject({ status: 'canceled' });
  });

  it('a failed renewal makes the account past due and mails the owner; when Stripe gives up, the user is free', async () => {
    const { user, headers, advance } = await userOnTestClock(1);
    const sub = await subscribeAndPay(headers, 'standard');
    const { stripeCustomerId } = await planOf(h, user.id);
    const declining = await h.stripe.paymentMethods.attach('pm_card_chargeDeclined', { customer: stripeCustomerId! });
    await h.stripe.subscriptions.update(sub, { default_payment_method: declining.id });

    const firstEnd = await periodEnd(sub);
    await advance(firstEnd + 60);
    expect((await planOf(h, user.id)).planType).toBe('standard');
    expect((await h.app.inject({ method: 'GET', url: '/api/subscription/status', headers })).json()).toMatchObject({ status: 'past_due' });
    const mail = await h.smtp.waitFor((m) => m.to.includes(user.email));
    expect(mail.subject).toBe('Your Sendwell payment failed');
    expect(mail.text).toContain('http://app.test/update-payment');
    expect(mail.text).toContain('Standard Monitoring');

    await advance((await periodEnd(sub)) + 60);
    expect((await planOf(h, user.id)).planType).toBe('free');
    expect((await domainsOf(user.id))[0]!.nextScanAt).toBeNull();
    expect(h.smtp.messages.filter((m) => m.to.includes(user.email))).toHaveLength(1);
  });
});
