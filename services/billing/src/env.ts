import {
  baseEnvSchema,
  defaultOutboxDir,
  envPort,
  mailEnvFields,
  parseEnv,
  requireProductionSettings,
  requireSmtpInProduction,
} from '@sendwell/server-kit';
import { z } from 'zod';

/** Stripe's own API; anything else is the local stand-in (packages/testing/src/stripe), which production refuses. */
export const STRIPE_API = 'https://api.stripe.com';
/** The stand-in's address (stripe-mock's port) and keys: `pnpm start` and tests use them when no key is set. */
export const STAND_IN_API = 'http://127.0.0.1:12111';
export const DEV_SECRET_KEY = 'sk_test_sendwell_stand_in';
export const DEV_WEBHOOK_SECRET = 'whsec_sendwell_stand_in';
export const DEV_PUBLISHABLE_KEY = 'pk_test_sendwell_stand_in';

const schema = baseEnvSchema
  .extend({
    PORT: envPort(3003),
    STRIPE_SECRET_KEY: z
      .string()
      .regex(/^(sk|rk)_(test|live)_\w+$/, 'must be a Stripe secret key (sk_test_…, sk_live_… or a restricted rk_ key)')
      .optional(),
    STRIPE_WEBHOOK_SECRET: z.string().regex(/^whsec_\w+$/, 'must be a webhook signing secret (whsec_…)').optional(),
    STRIPE_PUBLISHABLE_KEY: z.string().regex(/^pk_(test|live)_\w+$/, 'must be a publishable key (pk_test_… or pk_live_…)').optional(),
    /** Where the Stripe API answers: Stripe's own when a secret key is set, else the local stand-in. */
    STRIPE_API_URL: z.string().url().optional(),
    ...mailEnvFields,
  })
  .superRefine(requireProductionSettings)
  .superRefine(requireSmtpInProduction)
  .superRefine((env, ctx) => {
    if (env.NODE_ENV !== 'production') return;
    // Production takes real money: the stand-in and its public development keys would take none.
    if (!env.STRIPE_SECRET_KEY) {
      ctx.addIssue({ code: 'custom', path: ['STRIPE_SECRET_KEY'], message: 'must be set to your Stripe secret key in production' });
    }
    if (!env.STRIPE_WEBHOOK_SECRET) {
      ctx.addIssue({ code: 'custom', path: ['STRIPE_WEBHOOK_SECRET'], message: 'must be set to your webhook endpoint’s signing secret in production' });
    }
    if (!env.STRIPE_PUBLISHABLE_KEY) {
      ctx.addIssue({ code: 'custom', path: ['STRIPE_PUBLISHABLE_KEY'], message: 'must be set to your Stripe publishable key in production' });
    }
    if (env.STRIPE_API_URL !== undefined && env.STRIPE_API_URL.replace(/(?<!\/)\/+$/, '') !== STRIPE_API) {
      ctx.addIssue({ code: 'custom', path: ['STRIPE_API_URL'], message: `must be ${STRIPE_API} in production (the stand-in takes no real payments)` });
    }
  })
  .transform((env) => ({
    ...env,
    STRIPE_SECRET_KEY: env.STRIPE_SECRET_KEY ?? DEV_SECRET_KEY,
    STRIPE_WEBHOOK_SECRET: env.STRIPE_WEBHOOK_SECRET ?? DEV_WEBHOOK_SECRET,
    STRIPE_PUBLISHABLE_KEY: env.STRIPE_PUBLISHABLE_KEY ?? DEV_PUBLISHABLE_KEY,
    STRIPE_API_URL: (env.STRIPE_API_URL ?? (env.STRIPE_SECRET_KEY ? STRIPE_API : STAND_IN_API)).replace(/(?<!\/)\/+$/, ''),
    MAIL_OUTBOX_DIR: env.MAIL_OUTBOX_DIR ?? defaultOutboxDir(),
  }));

export type Env = ReturnType<typeof loadEnv>;

export function loadEnv(source: Record<string, string | undefined> = process.env) {
  return parseEnv('billing', schema, source);
}
