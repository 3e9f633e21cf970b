import { dnsServerList, envBoolean } from '@sendwell/server-kit';
import { z } from 'zod';
import type { EmailVerifierConfig } from './email-verifier.js';
import type { DnsLookupOptions } from './mail-hosts.js';

/**
 * The settings of the email address verification tool, as fields for `src/env.ts` to add to the
 * service's schema (env.ts stays the only reader of process.env). Each has a development default.
 */

export const emailVerifyEnvFields = {
  /** Resolvers for the MX lookups; empty means the system's (/etc/resolv.conf). */
  DNS_SERVERS: dnsServerList,
  DNS_TIMEOUT_MS: z.coerce.number().int().min(1).max(60_000).default(2_000),
  /** SMTP RCPT probing and catch-all detection; off by default (port 25 is blocked on many hosts). */
  EMAIL_VERIFY_SMTP_PROBE: envBoolean.default(false),
  EMAIL_VERIFY_SMTP_PORT: z.coerce.number().int().min(1).max(65535).default(25),
  EMAIL_VERIFY_HELO_DOMAIN: z
    .string()
    .regex(/^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i, 'must be a domain name such as verify.example.com')
    .default('sendwell.local'),
  EMAIL_VERIFY_SMTP_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(5_000),
  /** Verifications per user per window (EMAIL_VERIFY_RATE_WINDOW_SECONDS, default an hour). */
  EMAIL_VERIFY_RATE_LIMIT: z.coerce.number().int().min(1).max(1_000_000).default(60),
  EMAIL_VERIFY_RATE_WINDOW_SECONDS: z.coerce.number().int().min(1).max(86_400).default(3_600),
  /** Addresses per user per bulk window (EMAIL_VERIFY_BULK_WINDOW_SECONDS, default a day) in the bulk mode. */
  EMAIL_VERIFY_BULK_LIMIT: z.coerce.number().int().min(1).max(1_000_000).default(5_000),
  EMAIL_VERIFY_BULK_WINDOW_SECONDS: z.coerce.number().int().min(1).max(7 * 86_400).default(86_400),
};

type EmailVerifyEnv = { [K in keyof typeof emailVerifyEnvFields]: z.infer<(typeof emailVerifyEnvFields)[K]> };

/** ALLOW_LOOPBACK_TARGETS comes from the shared settings (server-kit's baseEnvSchema); unset, the guard refuses loopback. */
export function emailVerifierConfig(env: EmailVerifyEnv & { ALLOW_LOOPBACK_TARGETS?: boolean }): { dns: DnsLookupOptions; verifier: EmailVerifierConfig; rateLimit: { limit: number; windowSeconds: number; bulkLimit: number; bulkWindowSeconds: number } } {
  return {
    dns: { servers: env.DNS_SERVERS, timeoutMs: env.DNS_TIMEOUT_MS },
    verifier: {
      smtpProbe: env.EMAIL_VERIFY_SMTP_PROBE,
      smtpPort: env.EMAIL_VERIFY_SMTP_PORT,
      heloDomain: env.EMAIL_VERIFY_HELO_DOMAIN,
      smtpTimeoutMs: env.EMAIL_VERIFY_SMTP_TIMEOUT_MS,
      outbound: { allowLoopback: env.ALLOW_LOOPBACK_TARGETS ?? false },
    },
    rateLimit: {
      limit: env.EMAIL_VERIFY_RATE_LIMIT,
      windowSeconds: env.EMAIL_VERIFY_RATE_WINDOW_SECONDS,
      bulkLimit: env.EMAIL_VERIFY_BULK_LIMIT,
      bulkWindowSeconds: env.EMAIL_VERIFY_BULK_WINDOW_SECONDS,
    },
  };
}
