import { runService } from '@sendwell/server-kit';
import { buildApp } from './app.js';
import { createDeps } from './deps.js';
import { loadEnv } from './env.js';

const { env, logger } = await runService({ name: 'billing', loadEnv, createDeps, buildApp, depsCloseLabel: 'stripe, mail and database' });
logger.info({ stripeApi: env.STRIPE_API_URL }, env.STRIPE_API_URL.startsWith('https://api.stripe.com') ? 'billing on Stripe' : 'billing on the local Stripe stand-in: no real payments');
