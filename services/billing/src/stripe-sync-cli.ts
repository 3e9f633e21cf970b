import { createLogger, loadEnvOrExit } from '@sendwell/server-kit';
import { loadEnv } from './env.js';
import { syncCatalogue } from './stripe/catalogue.js';
import { createStripe } from './stripe/client.js';

/** `pnpm stripe:sync`: creates the products and prices the plan rules name, where Stripe lacks them. */
const env = loadEnvOrExit(loadEnv);
const logger = createLogger('stripe-sync', env.LOG_LEVEL);
const catalogue = await syncCatalogue(createStripe(env.STRIPE_SECRET_KEY, env.STRIPE_API_URL), logger);
logger.info({ api: env.STRIPE_API_URL, prices: Object.fromEntries(catalogue) }, 'Stripe catalogue in step with the plan rules');
