import { createDb, type Database } from '@sendwell/db';
import { createMailer, OutboundHttp, type Logger, type Mailer } from '@sendwell/server-kit';
import type Stripe from 'stripe';
import { STRIPE_API, type Env } from './env.js';
import { AccountClosureService } from './services/account-closure.service.js';
import { EntitlementService } from './services/entitlement.service.js';
import { InvoiceService } from './services/invoice.service.js';
import { SubscriptionService } from './services/subscription.service.js';
import { WebhookService } from './services/webhook.service.js';
import { PriceBook } from './stripe/catalogue.js';
import { createStripe } from './stripe/client.js';
import { InvoicePdfSource } from './stripe/invoice-pdf.js';

export interface Deps {
  env: Env;
  logger: Logger;
  db: Database;
  stripe: Stripe;
  mailer: Mailer;
  services: {
    subscriptions: SubscriptionService;
    webhooks: WebhookService;
    entitlements: EntitlementService;
    invoices: InvoiceService;
    accountClosure: AccountClosureService;
  };
  /** Close the HTTP server before. */
  close(): Promise<void>;
}

/** All wiring of the service, in one place. */
export function createDeps(env: Env, logger: Logger): Deps {
  const db = createDb({
    connectionString: env.DATABASE_URL,
    max: env.DATABASE_POOL_MAX,
    applicationName: 'sendwell-billing',
    onConnectionError: (err) => logger.warn({ err }, 'database connection lost; the pool opens another'),
  });
  const stripe = createStripe(env.STRIPE_SECRET_KEY, env.STRIPE_API_URL);
  const mailer = createMailer({ smtpUrl: env.SMTP_URL, from: env.MAIL_FROM, outboxDir: env.MAIL_OUTBOX_DIR, logger: logger.child({ module: 'mailer' }) });
  const prices = new PriceBook(stripe, logger.child({ module: 'PriceBook' }));
  const entitlements = new EntitlementService(db, stripe, logger.child({ module: 'EntitlementService' }));
  const subscriptions = new SubscriptionService(db, stripe, prices, entitlements, logger.child({ module: 'SubscriptionService' }));
  // The one outbound call to an address from another party's answer: an invoice's PDF link. The
  // stand-in (on loopback; production allows Stripe's API only) is reached like Stripe would be.
  const outbound = new OutboundHttp({
    policy: { allowLoopback: env.ALLOW_LOOPBACK_TARGETS || env.STRIPE_API_URL !== STRIPE_API },
    timeoutMs: 20_000,
    httpsOnly: env.NODE_ENV === 'production',
  });
  const invoicePdfs = new InvoicePdfSource(outbound, new URL(env.STRIPE_API_URL).origin, logger.child({ module: 'InvoicePdfSource' }));
  const invoices = new InvoiceService(db, stripe, invoicePdfs);
  const webhooks = new WebhookService(db, stripe, env.STRIPE_WEBHOOK_SECRET, entitlements, mailer, env.APP_URL, logger.child({ module: 'WebhookService' }));
  const accountClosure = new AccountClosureService(db, stripe, logger.child({ module: 'AccountClosureService' }));
  return {
    env,
    logger,
    db,
    stripe,
    mailer,
    services: { subscriptions, webhooks, entitlements, invoices, accountClosure },
    async close() {
      mailer.close();
      await outbound.close();
      await db.destroy();
    },
  };
}
