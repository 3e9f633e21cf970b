import { createLogger } from '@sendwell/server-kit';
import { startStripeStandIn, type StripeStandIn } from '@sendwell/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadEnv, STAND_IN_API, STRIPE_API } from '../src/env.js';
import { lookupKey, planOfPrice, syncCatalogue } from '../src/stripe/catalogue.js';
import { createStripe } from '../src/stripe/client.js';

const production = {
  NODE_ENV: 'production',
  JWT_SECRET: 'a-production-secret-of-at-least-32-characters',
  SMTP_URL: 'smtp://mail.example.com:587',
  TRUSTED_PROXIES: '10.0.0.0/8',
};

describe('billing settings', () => {
  it('talks to the local stand-in without a key, and to Stripe itself with one', () => {
    expect(loadEnv({ NODE_ENV: 'development' }).STRIPE_API_URL).toBe(STAND_IN_API);
    expect(loadEnv({ NODE_ENV: 'development', STRIPE_SECRET_KEY: 'sk_test_abc' }).STRIPE_API_URL).toBe(STRIPE_API);
    expect(loadEnv({ STRIPE_SECRET_KEY: 'sk_test_abc', STRIPE_API_URL: 'http://127.0.0.1:12111/' }).STRIPE_API_URL).toBe('http://127.0.0.1:12111');
  });

  it('refuses production without Stripe’s keys, or pointed at anything but Stripe', () => {
    expect(() => loadEnv(production)).toThrow(/STRIPE_SECRET_KEY: must be set.*STRIPE_WEBHOOK_SECRET: must be set.*STRIPE_PUBLISHABLE_KEY: must be set/);
    const keys = { STRIPE_SECRET_KEY: 'sk_live_abc', STRIPE_WEBHOOK_SECRET: 'whsec_abc', STRIPE_PUBLISHABLE_KEY: 'pk_live_abc' };
    expect(loadEnv({ ...production, ...keys }).STRIPE_API_URL).toBe(STRIPE_API);
    expect(() => loadEnv({ ...production, ...keys, STRIPE_API_URL: STAND_IN_API })).toThrow(/STRIPE_API_URL: must be https:\/\/api\.stripe\.com in production/);
  });

  it('names a malformed key without echoing it', () => {
    expect(() => loadEnv({ STRIPE_SECRET_KEY: 'pk_test_wrong_kind' })).toThrow(/STRIPE_SECRET_KEY: must be a Stripe secret key/);
    expect(() => loadEnv({ STRIPE_WEBHOOK_SECRET: 'secret' })).toThrow(/STRIPE_WEBHOOK_SECRET/);
  });
});

describe('syncCatalogue', () => {
  let standIn: StripeStandIn;
  beforeAll(async () => {
    standIn = await startStripeStandIn({ port: 0 });
  });
  afterAll(() => standIn.close());

  it('creates a monthly price per paid plan and currency at the plan rules’ amounts, once', async () => {
    const stripe = createStripe('sk_test_catalogue', standIn.url);
    const logger = createLogger('catalogue-test', 'silent');
    const first = await syncCatalogue(stripe, logger);
    expect(first.size).toBe(9);
    const again = await syncCatalogue(stripe, logger);
    expect(again).toEqual(first);
    const prices = await stripe.prices.list({ lookup_keys: [lookupKey('standard', 'AUD'), lookupKey('advanced', 'USD')], limit: 10 });
    expect(prices.data.map((p) => [p.lookup_key, p.unit_amount, p.currency, p.recurring?.interval]).sort()).toEqual([
      ['sendwell_advanced_usd_monthly', 5900, 'usd', 'month'],
      ['sendwell_standard_aud_monthly', 3450, 'aud', 'month'],
    ]);
    expect(planOfPrice(prices.data[0])).not.toBeNull();
    expect(planOfPrice({ lookup_key: 'someone_elses_price' })).toBeNull();
  });

  it('gives a changed amount a new price that takes the lookup key over', async () => {
    const stripe = createStripe('sk_test_catalogue', standIn.url);
    const logger = createLogger('catalogue-test', 'silent');
    const before = await syncCatalogue(stripe, logger);
    const key = lookupKey('basic', 'CAD');
    // Someone edited Stripe by hand: the price under our key is no longer the plan rules' amount.
    await stripe.prices.create({ product: 'sendwell_basic', currency: 'cad', unit_amount: 1, recurring: { interval: 'month' }, lookup_key: key, transfer_lookup_key: true });
    const after = await syncCatalogue(stripe, logger);
    expect(after.get(key)).not.toBe(before.get(key));
    const current = await stripe.prices.list({ lookup_keys: [key] });
    expect(current.data.map((p) => p.unit_amount)).toEqual([1500]);
  });
});
