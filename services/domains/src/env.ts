import { baseEnvSchema, envBoolean, envPort, parseEnv, requireProductionSettings } from '@sendwell/server-kit';
import { z } from 'zod';
import { emailVerifyEnvFields } from './email-verify/email-verify.env.js';
import { notifyEnvFields, requireNotifyProductionSettings } from './notify/notify.env.js';

const schema = baseEnvSchema
  .extend({
    PORT: envPort(3002),
    /**
     * Run the `maintenance` queue's worker (purge of old deletions, sign-up domains) in this process.
     * This service owns the domains table, so the work is done here; turn it off only to run it elsewhere.
     */
    MAINTENANCE_WORKER: envBoolean.default(true),
    MAINTENANCE_CONCURRENCY: z.coerce.number().int().min(1).max(100).default(4),
    /**
     * New quick-check domains (each a row and a full scan) accepted per minute across every domains
     * process. The gateway limits each client; this caps what many clients together can create.
     */
    SAMPLE_DOMAINS_PER_MINUTE: z.coerce.number().int().min(1).max(100_000).default(60),
    // DNS_SERVERS, DNS_TIMEOUT_MS and EMAIL_VERIFY_*: the email address verification tool (src/email-verify/email-verify.env.ts).
    ...emailVerifyEnvFields,
    // Mail, NOTIFY_*, INTEGRATIONS_ENCRYPTION_KEY and the chat and on-call API origins: alert delivery (src/notify/notify.env.ts).
    ...notifyEnvFields,
  })
  .superRefine(requireProductionSettings)
  .superRefine(requireNotifyProductionSettings);

export type Env = ReturnType<typeof loadEnv>;

export function loadEnv(source: Record<string, string | undefined> = process.env) {
  return parseEnv('domains', schema, source);
}
