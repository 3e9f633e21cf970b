import { envBoolean, mailEnvFields, requireSmtpInProduction } from '@sendwell/server-kit';
import { DELIVERY_FIRST_RETRY_MS } from '@sendwell/contracts';
import { z } from 'zod';
import { decodeSealingKey, LEGACY_KEY_ID, parseSealingKeys, type SealingKey } from './sealing-keys.js';

/** A development key, refused outside development and test: configs sealed with it are readable by anyone with the source. */
export const DEV_INTEGRATIONS_KEY = Buffer.alloc(32, 'sendwell-development-only-key!!!').toString('base64');

/** A parser's error message as the setting's issue. */
function thrownAsIssue<T>(parse: (value: string) => T) {
  return (value: string, ctx: z.RefinementCtx): T => {
    try {
      return parse(value);
    } catch (error) {
      ctx.addIssue({ code: 'custom', message: (error as Error).message });
      return z.NEVER;
    }
  };
}

const httpsOrLoopbackUrl = z
  .string()
  .url()
  // Trailing slashes dropped; the lookbehind starts the match at the run's first slash, so it is linear.
  .transform((v) => v.replace(/(?<!\/)\/+$/, ''));

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
  /**
   * The AES-256-GCM keys that seal integration configs and webhook secrets at rest: comma-separated
   * `id:base64key` (32 bytes each), newest first (src/notify/secret-box.ts tells how to rotate).
   */
  INTEGRATIONS_ENCRYPTION_KEYS: z.string().transform(thrownAsIssue(parseSealingKeys)).optional(),
  /** One key, the setting before rotation: read as `k0:<key>`. Defaults to a development key. */
  INTEGRATIONS_ENCRYPTION_KEY: z.string().transform(thrownAsIssue(decodeSealingKey)).optional(),
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

type KeySettings = { INTEGRATIONS_ENCRYPTION_KEYS?: SealingKey[] | undefined; INTEGRATIONS_ENCRYPTION_KEY?: Buffer | undefined };

/** The secret box's keys, newest first, from whichever of the two settings is given. */
export const integrationKeys = (env: KeySettings): SealingKey[] =>
  env.INTEGRATIONS_ENCRYPTION_KEYS ?? [{ id: LEGACY_KEY_ID, key: env.INTEGRATIONS_ENCRYPTION_KEY ?? decodeSealingKey(DEV_INTEGRATIONS_KEY) }];

/** One of the two key settings, never both; production refuses the development key and outbox mail. */
export const requireNotifyProductionSettings = (env: { NODE_ENV: string; SMTP_URL?: string | undefined } & KeySettings, ctx: z.RefinementCtx) => {
  requireSmtpInProduction(env, ctx);
  if (env.INTEGRATIONS_ENCRYPTION_KEYS && env.INTEGRATIONS_ENCRYPTION_KEY) {
    ctx.addIssue({ code: 'custom', path: ['INTEGRATIONS_ENCRYPTION_KEY'], message: 'set INTEGRATIONS_ENCRYPTION_KEYS or INTEGRATIONS_ENCRYPTION_KEY, not both (list the old key in INTEGRATIONS_ENCRYPTION_KEYS as k0:<key>)' });
    return;
  }
  if (env.NODE_ENV === 'development' || env.NODE_ENV === 'test') return;
  const dev = Buffer.from(DEV_INTEGRATIONS_KEY, 'base64');
  const devKey = integrationKeys(env).find((k) => k.key.equals(dev));
  if (devKey) {
    const setting = env.INTEGRATIONS_ENCRYPTION_KEYS ? 'INTEGRATIONS_ENCRYPTION_KEYS' : 'INTEGRATIONS_ENCRYPTION_KEY';
    ctx.addIssue({ code: 'custom', path: [setting], message: `must hold keys of your own when NODE_ENV is ${env.NODE_ENV} (key ${devKey.id} is the development key)` });
  }
};
