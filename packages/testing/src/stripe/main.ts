import { stripeStandInEnv } from '../env.js';
import { startStripeStandIn } from './server.js';

/** `pnpm --filter @sendwell/testing stripe`: the stand-in alone, for running the billing service by hand. */
const standIn = await startStripeStandIn(stripeStandInEnv);
process.stdout.write(`Stripe stand-in on ${standIn.url} (any sk_test_ key)\n`);
const stop = (): void => void standIn.close().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
