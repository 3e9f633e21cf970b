import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { baseEnvSchema, envBoolean, envPort, parseEnv, requireProductionSecret } from '@sendwell/server-kit';
import { z } from 'zod';

const UNIT_MS = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 } as const;

/**
 * Parses a token lifetime such as "7d", "12h" or "3600s". The session row expires with the token, so
 * the duration is read once here and both the JWT and the session take it from `sessionTtlMs`.
 */
export function parseDuration(value: string): number | null {
  const match = /^(\d+)\s*([smhdw])$/.exec(value.trim().toLowerCase());
  if (!match) return null;
  return Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS];
}

/** `.outbox` at the repository root when running inside it, else in the working directory. */
function defaultOutboxDir(cwd = process.cwd()): string {
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'pnpm-workspace.yaml'))) return join(dir, '.outbox');
    if (dirname(dir) === dir) return join(resolve(cwd), '.outbox');
  }
}

const schema = baseEnvSchema
  .extend({
    PORT: envPort(3001),
    /** Lifetime of a login: the JWT's `exp` and the session row's `expires`. */
    JWT_EXPIRES_IN: z
      .string()
      .default('7d')
      .refine((v) => (parseDuration(v) ?? 0) >= 60_000, 'must be a duration of at least a minute such as 7d, 12h, 30m or 3600s'),
    /** Secure cookies need HTTPS; development runs over plain HTTP. */
    COOKIE_SECURE: envBoolean.default(false),
    REQUIRE_EMAIL_VERIFICATION: envBoolean.default(false),
    /** Origin of the web app, for the links in mail. */
    APP_URL: z.string().url().default('http://localhost:3000').transform((v) => v.replace(/\/+$/, '')),
    /** smtp:// or smtps:// URL; unset, mail is written to MAIL_OUTBOX_DIR and logged. */
    SMTP_URL: z.string().url().refine((v) => /^smtps?:\/\//.test(v), 'must start with smtp:// or smtps://').optional(),
    MAIL_FROM: z.string().min(3).default('Sendwell <no-reply@sendwell.local>'),
    MAIL_OUTBOX_DIR: z.string().min(1).optional(),
  })
  .superRefine(requireProductionSecret)
  .transform((env) => ({
    ...env,
    MAIL_OUTBOX_DIR: env.MAIL_OUTBOX_DIR ?? defaultOutboxDir(),
    sessionTtlMs: parseDuration(env.JWT_EXPIRES_IN) as number,
  }));

export type Env = ReturnType<typeof loadEnv>;

export function loadEnv(source: Record<string, string | undefined> = process.env) {
  return parseEnv('auth', schema, source);
}
