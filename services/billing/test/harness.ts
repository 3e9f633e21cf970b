import type { Database } from '@sendwell/db';
import { createLogger, type App } from '@sendwell/server-kit';
import { createTestDb, freePort, startSmtpServer, startStripeStandIn, type StripeStandIn, type TestDb, type TestSmtpServer } from '@sendwell/testing';
import type Stripe from 'stripe';
import { buildApp } from '../src/app.js';
import { createDeps, type Deps } from '../src/deps.js';
import { loadEnv } from '../src/env.js';
import { createStripe } from '../src/stripe/client.js';

export const WEBHOOK_SECRET = 'whsec_billing_tests';
export const SECRET_KEY = 'sk_test_billing_tests';

export interface BillingHarness {
  app: App;
  deps: Deps;
  db: Database;
  testDb: TestDb;
  standIn: StripeStandIn;
  smtp: TestSmtpServer;
  /** A client of the stand-in, playing the customer's browser (Stripe.js) and Stripe's dashboard. */
  stripe: Stripe;
  /** The billing app's own webhook URL, where the stand-in delivers its events. */
  webhookUrl: string;
  user(opts?: { plan?: string; currency?: string; customer?: string }): Promise<{ id: number; email: string }>;
  auth(user: { id: number }): Promise<Record<string, string>>;
  /** Waits until every event so far has reached the billing service. */
  settled(): Promise<void>;
  close(): Promise<void>;
}

let serial = 0;

/**
 * The real billing service, listening (the stand-in posts its webhooks to it), on a database of its
 * own, with the Stripe stand-in as Stripe and a real SMTP server for its mail.
 */
export async function startBillingHarness(): Promise<BillingHarness> {
  const testDb = await createTestDb();
  const smtp = await startSmtpServer();
  const port = await freePort();
  const webhookUrl = `http://127.0.0.1:${port}/api/webhooks/stripe`;
  const standIn = await startStripeStandIn({ port: 0, webhookUrl, webhookSecret: WEBHOOK_SECRET });
  const env = loadEnv({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    PORT: String(port),
    DATABASE_URL: testDb.url,
    DATABASE_POOL_MAX: '12',
    STRIPE_SECRET_KEY: SECRET_KEY,
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    STRIPE_API_URL: standIn.url,
    SMTP_URL: smtp.url,
    APP_URL: 'http://app.test',
  });
  const deps = createDeps(env, createLogger('billing-test', 'silent'));
  const app = await buildApp(deps);
  await app.listen({ host: '127.0.0.1', port });
  const db = testDb.db;

  return {
    app,
    deps,
    db,
    testDb,
    standIn,
    smtp,
    stripe: createStripe(SECRET_KEY, standIn.url),
    webhookUrl,
    async user(opts = {}) {
      serial += 1;
      const email = `payer-${serial}-${Date.now()}@example.com`;
      return db
        .insertInto('users')
        .values({
          username: `payer-${serial}-${Date.now()}`,
          email,
          passwordHash: 'x',
          planType: opts.plan ?? 'free',
          currency: opts.currency ?? 'AUD',
          stripeCustomerId: opts.customer ?? null,
        })
        .returning(['id', 'email'])
        .executeTakeFirstOrThrow();
    },
    async auth(user) {
      const session = await db
        .insertInto('sessions')
        .values({ userId: user.id, expires: new Date(Date.now() + 3_600_000) })
        .returning('id')
        .executeTakeFirstOrThrow();
      return { authorization: `Bearer ${app.jwt.sign({ sub: String(user.id), sid: session.id })}` };
    },
    settled: () => standIn.deliveries(),
    async close() {
      await app.close();
      await deps.close();
      await standIn.close();
      await smtp.close();
      await testDb.close();
    },
  };
}

/** Plays the customer's browser: confirms the payment the dialog shows, with one of Stripe's test cards. */
export async function payWith(h: BillingHarness, clientSecret: string, card: 'pm_card_visa' | 'pm_card_chargeDeclined'): Promise<void> {
  const intent = clientSecret.split('_secret_')[0]!;
  await h.stripe.paymentIntents.confirm(intent, { payment_method: card });
}

export async function planOf(h: BillingHarness, userId: number) {
  return h.db
    .selectFrom('users')
    .select(['planType', 'currency', 'currencyLocked', 'stripeCustomerId', 'stripeSubscriptionId'])
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
}
