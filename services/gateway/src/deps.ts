import { closeRedis, createRedis, sessionCookie, type Logger } from '@sendwell/server-kit';
import type { Redis } from 'ioredis';
import type { Env } from './env.js';
import { GatewayMetrics } from './metrics.js';
import { closeUpstreams, createUpstreams, type Upstreams } from './proxy/upstreams.js';
import { RateLimiter, rateLimitRules, type RateLimitRule } from './rate-limits.js';

export interface Deps {
  env: Env;
  logger: Logger;
  redis: Redis;
  upstreams: Upstreams;
  metrics: GatewayMetrics;
  rateLimiter: RateLimiter | null;
  rateLimitRules: RateLimitRule[];
  /** Closes the pools and Redis; call after the HTTP server has closed. */
  close(): Promise<void>;
}

export function createDeps(env: Env, logger: Logger): Deps {
  // Fail fast (no offline queue, short command timeout): a rate-limit check must never hold a request.
  const redis = createRedis(env.REDIS_URL, 'producer', { commandTimeout: 500 });
  let lastRedisError = 0;
  redis.on('error', (err) => {
    const now = Date.now();
    if (now - lastRedisError < 60_000) return;
    lastRedisError = now;
    logger.warn({ err }, 'redis unavailable: rate limits are not enforced until it is back');
  });

  const upstreams = createUpstreams({
    urls: { auth: env.AUTH_URL, domains: env.DOMAINS_URL, billing: env.BILLING_URL, reports: env.REPORTS_URL, scanner: env.SCANNER_URL, intake: env.INTAKE_URL },
    timeoutMs: env.UPSTREAM_TIMEOUT_MS,
    connections: env.UPSTREAM_CONNECTIONS,
  });

  return {
    env,
    logger,
    redis,
    upstreams,
    metrics: new GatewayMetrics(),
    rateLimiter: env.RATE_LIMIT_ENABLED ? new RateLimiter(redis, env.RATE_LIMIT_PREFIX, logger.child({ module: 'RateLimiter' }), sessionCookie(env).name) : null,
    rateLimitRules: rateLimitRules({
      login: env.RATE_LIMIT_LOGIN,
      register: env.RATE_LIMIT_REGISTER,
      forgotPassword: env.RATE_LIMIT_FORGOT_PASSWORD,
      resetPassword: env.RATE_LIMIT_RESET_PASSWORD,
      quickCheck: env.RATE_LIMIT_QUICK_CHECK,
      emailVerify: env.RATE_LIMIT_EMAIL_VERIFY,
      emailVerifyBatch: env.RATE_LIMIT_EMAIL_VERIFY_BATCH,
      reportGenerate: env.RATE_LIMIT_REPORT_GENERATE,
      integrationTest: env.RATE_LIMIT_INTEGRATION_TEST,
      serverStats: env.RATE_LIMIT_SERVER_STATS,
      history: env.RATE_LIMIT_HISTORY,
      scanDetail: env.RATE_LIMIT_SCAN_DETAIL,
    }),
    async close() {
      await closeUpstreams(upstreams);
      await closeRedis(redis);
    },
  };
}
