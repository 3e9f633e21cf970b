import { createLogger, loadEnvOrExit, onShutdown } from '@sendwell/server-kit';
import { buildApp } from './app.js';
import { createDeps } from './deps.js';
import { loadEnv } from './env.js';

const env = loadEnvOrExit(loadEnv);
const logger = createLogger('billing', env.LOG_LEVEL);
const deps = createDeps(env, logger);
const app = await buildApp(deps);
await app.listen({ host: env.HOST, port: env.PORT });
logger.info({ stripeApi: env.STRIPE_API_URL }, env.STRIPE_API_URL.startsWith('https://api.stripe.com') ? 'billing on Stripe' : 'billing on the local Stripe stand-in: no real payments');
onShutdown(logger, [
  ['http server', () => app.close()],
  ['stripe, mail and database', () => deps.close()],
]);
