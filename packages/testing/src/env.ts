/**
 * The settings the test kit reads: where Postgres, Redis and a Docker engine are, when given, and the
 * PATH and HOME the whole stack's child processes inherit.
 */
export const testEnv = {
  databaseUrl: process.env.DATABASE_URL,
  redisUrl: process.env.REDIS_URL,
  dockerHost: process.env.DOCKER_HOST,
  path: process.env.PATH,
  home: process.env.HOME,
};

/** The settings `pnpm stripe` (the Stripe stand-in run alone) reads. */
export const stripeStandInEnv = {
  port: Number(process.env.PORT ?? 12111),
  webhookUrl: process.env.STRIPE_WEBHOOK_URL,
  webhookSecret: process.env.STRIPE_WEBHOOK_SECRET,
};
