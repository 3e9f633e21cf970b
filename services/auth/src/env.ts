import {
  baseEnvSchema,
  defaultOutboxDir,
  envBoolean,
  envPort,
  mailEnvFields,
  parseEnv,
  requireProductionSettings,
  requireSmtpInProduction,
} from '@sendwell/server-kit';
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

const duration = (fallback: string, minimumMs: number, example: string) =>
  z
    .string()
    .default(fallback)
    .refine((v) => (parseDuration(v) ?? 0) >= minimumMs, `must be a duration such as ${example}`)
    .transform((v) => parseDuration(v) as number);

const schema = baseEnvSchema
  .extend({
    PORT: envPort(3001),
    /** Lifetime of a login: the JWT's `exp` and the session row's `expires`. */
    JWT_EXPIRES_IN: z
      .string()
      .default('7d')
      .refine((v) => (parseDuration(v) ?? 0) >= 60_000, 'must be a duration of at least a minute such as 7d, 12h, 30m or 3600s'),
    /** Unset: required in production (accounts must own their address before they scan or get mail), optional elsewhere. */
    REQUIRE_EMAIL_VERIFICATION: envBoolean.optional(),
    ...mailEnvFields,
    /** The billing service's own port (never the gateway): account deletion ends billing there first; the export reads invoices. */
    BILLING_URL: z.string().url().default('http://127.0.0.1:3003'),
    /** Login attempts per account (any address) within LOGIN_FAILURE_WINDOW before each further one waits 1 s, 2 s, 4 s… */
    LOGIN_FAILURE_LIMIT: z.coerce.number().int().min(1).max(1000).default(5),
    LOGIN_FAILURE_WINDOW: duration('15m', 1_000, '15m or 900s'),
    /** The longest wait between attempts on one account. */
    LOGIN_BACKOFF_MAX: duration('15m', 1_000, '15m or 900s'),
  })
  .superRefine(requireProductionSettings)
  .superRefine(requireSmtpInProduction)
  .transform((env) => ({
    ...env,
    REQUIRE_EMAIL_VERIFICATION: env.REQUIRE_EMAIL_VERIFICATION ?? env.NODE_ENV === 'production',
    MAIL_OUTBOX_DIR: env.MAIL_OUTBOX_DIR ?? defaultOutboxDir(),
    sessionTtlMs: parseDuration(env.JWT_EXPIRES_IN) as number,
  }));

export type Env = ReturnType<typeof loadEnv>;

export function loadEnv(source: Record<string, string | undefined> = process.env) {
  return parseEnv('auth', schema, source);
}
