import { envBoolean, mailEnvFields, requireSmtpInProduction } from '@sendwell/server-kit';
import { DELIVERY_FIRST_RETRY_MS } from '@sendwell/contracts';
import { z } from 'zod';

/** A development key, refused outside development and test: configs sealed with it are readable by anyone with the source. */
export const DEV_INTEGRATIONS_KEY = Buffer.alloc(32, 'sendwell-development-only-key!!!').toString('base64');

const httpsOrLoopbackUrl = z
  .string()
  .url()
  .transform((v) => v.replace(/\/+$/, ''));

/**
 * Alert delivery settings, as fields for `src/env.ts`. The chat and on-call services' API origins are
 * settings so tests and a staging setup can point them at receivers of their own.
 */
export const notifyEnvFields = {
  ...mailEnvFields,
  /** Run the `notify` queue's worker (alert fan-out and delivery) in this process. */
  NOTIFY_WORKER: envBoolean.default(true),
  /** Deliveries in flight per process: they wait on other people's servers, so many at once. */
  NOTIFY_CONCURRENCY: z.coerce.number().int().min(1).max(1000).default(50),
  /** 32 bytes, base64: the AES-256-GCM key that seals integration configs and webhook secrets at rest. */
  INTEGRATIONS_ENCRYPTION_KEY: z
    .string()
    .default(DEV_INTEGRATIONS_KEY)
    .refine((v) => Buffer.from(v, 'base64').length === 32, 'must be 32 bytes, base64-encoded (openssl rand -base64 32)'),
  /** First retry wait of a failed delivery (doubling up to 24 hours in all); tests shorten it. */
  NOTIFY_RETRY_BASE_MS: z.coerce.number().int().min(10).max(600_000).default(DELIVERY_FIRST_RETRY_MS),
  /**
   * How long a worker holds a delivery job before another may take it over (its worker died), and how
   * often workers look for such jobs. A delivery is bounded by NOTIFY_TIMEOUT_MS, well within the lock.
   */
  NOTIFY_LOCK_DURATION_MS: z.coerce.number().int().min(500).max(600_000).default(60_000),
  NOTIFY_STALLED_INTERVAL_MS: z.coerce.number().int().min(200).max(600_000).default(30_000),
  /** Per-attempt limit of one delivery (connect, send, answer). */
  NOTIFY_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
  /** PEM file of extra CA certificates trusted for deliveries (a private CA, or tests' receivers). */
  OUTBOUND_EXTRA_CA_FILE: z.string().min(1).optional(),
  SLACK_API_URL: httpsOrLoopbackUrl.default('https://slack.com/api'),
  DISCORD_API_URL: httpsOrLoopbackUrl.default('https://discord.com/api/v10'),
  PAGERDUTY_EVENTS_URL: httpsOrLoopbackUrl.default('https://events.pagerduty.com'),
  MAILCHIMP_API_URL: z.string().default('https://{dc}.api.mailchimp.com/3.0'),
  SENDGRID_API_URL: httpsOrLoopbackUrl.default('https://api.sendgrid.com'),
  HUBSPOT_API_URL: httpsOrLoopbackUrl.default('https://api.hubapi.com'),
  CONSTANT_CONTACT_API_URL: httpsOrLoopbackUrl.default('https://api.cc.email/v3'),
};

/** Production refuses the development key and outbox mail. */
export const requireNotifyProductionSettings = (env: { NODE_ENV: string; SMTP_URL?: string | undefined; INTEGRATIONS_ENCRYPTION_KEY: string }, ctx: z.RefinementCtx) => {
  requireSmtpInProduction(env, ctx);
  if (env.NODE_ENV !== 'development' && env.NODE_ENV !== 'test' && env.INTEGRATIONS_ENCRYPTION_KEY === DEV_INTEGRATIONS_KEY) {
    ctx.addIssue({ code: 'custom', path: ['INTEGRATIONS_ENCRYPTION_KEY'], message: `must be set to a key of your own when NODE_ENV is ${env.NODE_ENV}` });
  }
};
