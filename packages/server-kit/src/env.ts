import { z } from 'zod';

/** "false", "0", "no", "off" and "" read as false; a plain `z.coerce.boolean()` would read "false" as true. */
export const envBoolean = z
  .union([z.boolean(), z.string()])
  .transform((v) => (typeof v === 'boolean' ? v : !['false', '0', 'no', 'off', ''].includes(v.trim().toLowerCase())));

export const envPort = (fallback: number) => z.coerce.number().int().min(0).max(65535).default(fallback);

export const DEV_JWT_SECRET = 'sendwell-development-secret-do-not-use-in-production';

/** Settings every service shares; each service extends this with its own. */
export const baseEnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  HOST: z.string().default('127.0.0.1'),
  DATABASE_URL: z.string().url().default('postgres://postgres@127.0.0.1:5432/sendwell'),
  DATABASE_POOL_MAX: z.coerce.number().int().min(1).max(200).default(10),
  REDIS_URL: z.string().url().default('redis://127.0.0.1:6379'),
  /** BullMQ key prefix; tests give each file its own so they can share one Redis. */
  QUEUE_PREFIX: z.string().min(1).default('sendwell'),
  JWT_SECRET: z.string().min(32, 'must be at least 32 characters').default(DEV_JWT_SECRET),
  ADMIN_EMAIL: z.string().email().optional(),
});

/** Refuses the development JWT secret in production (a cross-field rule zod's object cannot state alone). */
export const requireProductionSecret = <T extends { NODE_ENV: string; JWT_SECRET: string }>(env: T, ctx: z.RefinementCtx) => {
  if (env.NODE_ENV === 'production' && env.JWT_SECRET === DEV_JWT_SECRET) {
    ctx.addIssue({ code: 'custom', path: ['JWT_SECRET'], message: 'must be set to a secret of your own in production' });
  }
};

export class EnvError extends Error {
  override name = 'EnvError';
}

/**
 * Parses the environment once at start. A bad setting stops the service with a message naming it,
 * e.g. "Invalid environment for auth: PORT: Too big: expected number to be <=65535".
 */
export function parseEnv<S extends z.ZodType>(service: string, schema: S, source: Record<string, string | undefined>): z.infer<S> {
  // Empty strings mean "not set", so defaults apply (a blank line in an env file is not a value).
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v !== ''));
  const result = schema.safeParse(cleaned);
  if (result.success) return result.data;
  const problems = result.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
  throw new EnvError(`Invalid environment for ${service}: ${problems}`);
}

/** For `main.ts`: a bad setting prints its message and exits 1, without a stack trace. */
export function loadEnvOrExit<T>(load: () => T): T {
  try {
    return load();
  } catch (error) {
    if (!(error instanceof EnvError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
}
