import { isAbsolute, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { baseEnvSchema, envBoolean, envPort, parseEnv, requireProductionSettings } from '@sendwell/server-kit';
import { z } from 'zod';
import { parseRateLimit } from './rate-limits.js';

/** Relative paths are read from the repository root, so the answer does not depend on where pnpm runs the process. */
const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

const upstreamUrl = (port: number) => z.string().url().default(`http://127.0.0.1:${port}`);

/** "10/60s", "5/1h", "100/15m": requests per window, per client address (or per session: the history and scan-detail limits). */
const rateLimit = (fallback: string) =>
  z
    .string()
    .default(fallback)
    .transform((value, ctx) => {
      const parsed = parseRateLimit(value);
      if (!parsed) {
        ctx.addIssue({ code: 'custom', message: `expected "<count>/<window>" such as "10/60s" or "5/1h", got "${value}"` });
        return z.NEVER;
      }
      return parsed;
    });

const schema = baseEnvSchema
  .extend({
    PORT: envPort(3000),
    /** `/metrics` and `/health/ready` answer only here, never on the public port. */
    INTERNAL_PORT: envPort(3010),
    INTERNAL_HOST: z.string().default('127.0.0.1'),
    /** The public URL; its origin is accepted as `Origin` of state-changing calls besides the Host's own. */
    APP_URL: z.string().url().optional(),
    AUTH_URL: upstreamUrl(3001),
    DOMAINS_URL: upstreamUrl(3002),
    BILLING_URL: upstreamUrl(3003),
    REPORTS_URL: upstreamUrl(3004),
    SCANNER_URL: upstreamUrl(3005),
    INTAKE_URL: upstreamUrl(3006),
    /** Longest wait for an upstream's headers, and then between body chunks; past it the answer is 504. */
    UPSTREAM_TIMEOUT_MS: z.coerce.number().int().min(50).max(600_000).default(30_000),
    /** Keep-alive connections per upstream (undici Pool size). */
    UPSTREAM_CONNECTIONS: z.coerce.number().int().min(1).max(10_000).default(128),
    /** Largest request body forwarded; as large as the services' own limit (the kit's 1 MiB), never larger, so none of them closes mid-upload. */
    BODY_LIMIT_BYTES: z.coerce.number().int().min(1024).max(1024 ** 3).default(1_048_576),
    /** Served over HTTPS (directly or by a proxy in front): HSTS and upgrade-insecure-requests. On by default in production. */
    TRUST_HTTPS: envBoolean.optional(),
    WEB_DIST_DIR: z
      .string()
      .default('apps/web/dist')
      .transform((p) => (isAbsolute(p) ? p : resolve(REPO_ROOT, p))),
    RATE_LIMIT_ENABLED: envBoolean.default(true),
    /** Redis key prefix of the rate-limit counters; tests give each file its own. */
    RATE_LIMIT_PREFIX: z.string().min(1).default('sendwell:rl'),
    RATE_LIMIT_LOGIN: rateLimit('10/1m'),
    RATE_LIMIT_REGISTER: rateLimit('5/1h'),
    RATE_LIMIT_FORGOT_PASSWORD: rateLimit('5/1h'),
    RATE_LIMIT_RESET_PASSWORD: rateLimit('10/1h'),
    RATE_LIMIT_QUICK_CHECK: rateLimit('10/1m'),
    RATE_LIMIT_EMAIL_VERIFY: rateLimit('20/1m'),
    /** The expensive calls: a batch of up to 100 verifications, report generation, integration and webhook test messages, the administrator statistics. */
    RATE_LIMIT_EMAIL_VERIFY_BATCH: rateLimit('5/1m'),
    RATE_LIMIT_REPORT_GENERATE: rateLimit('10/1m'),
    RATE_LIMIT_INTEGRATION_TEST: rateLimit('10/1m'),
    RATE_LIMIT_SERVER_STATS: rateLimit('30/1m'),
    /**
     * The reads of stored scans, per session (per client address without one): the whole history
     * (`/api/domain-checks/history`), and one scan's detail or a domain's score history. Generous
     * enough for a person paging and refreshing.
     */
    RATE_LIMIT_HISTORY: rateLimit('60/1m'),
    RATE_LIMIT_SCAN_DETAIL: rateLimit('120/1m'),
  })
  .superRefine(requireProductionSettings)
  .transform((env) => ({
    ...env,
    TRUST_HTTPS: env.TRUST_HTTPS ?? env.NODE_ENV === 'production',
  }));

export type Env = ReturnType<typeof loadEnv>;

export function loadEnv(source: Record<string, string | undefined> = process.env) {
  return parseEnv('gateway', schema, source);
}
