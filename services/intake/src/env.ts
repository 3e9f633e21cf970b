import { readFileSync } from 'node:fs';
import { baseEnvSchema, dnsServerList, envBoolean, envPort, parseEnv, requireProductionSettings } from '@sendwell/server-kit';
// The development report domain; production must name its own (the MX and the `_report._dmarc` wildcard live there).
import { DEV_INTAKE_DOMAIN, DOMAIN_PATTERN, MAX_REPORT_UPLOAD_BYTES } from '@sendwell/contracts';
import { z } from 'zod';


const pemFile = z
  .string()
  .optional()
  .transform((path, ctx) => {
    if (!path) return undefined;
    try {
      return readFileSync(path);
    } catch (error) {
      ctx.addIssue({ code: 'custom', message: `cannot read ${path}: ${(error as Error).message}` });
      return z.NEVER;
    }
  });

const schema = baseEnvSchema
  .extend({
    /** HTTP: the mail-flow calls and the TLS-RPT HTTPS intake (through the gateway). */
    PORT: envPort(3006),
    /** SMTP for reports and test messages: 2500 here, 25 behind a load balancer in production. */
    INTAKE_SMTP_PORT: envPort(2500),
    INTAKE_SMTP_HOST: z.string().default('127.0.0.1'),
    /** The domain of every address the intake issues (`<token>@<INTAKE_DOMAIN>`); its MX points at this service. */
    INTAKE_DOMAIN: z.string().regex(DOMAIN_PATTERN, 'must be a domain name such as reports.example.com').default(DEV_INTAKE_DOMAIN).transform((d) => d.toLowerCase()),
    /** Public base URL of the API (the TLS-RPT HTTPS address is `<this>/api/intake/tls-rpt/<token>`). */
    INTAKE_PUBLIC_URL: z.string().url().default('http://localhost:3000'),
    /** Certificate and key (PEM files) for STARTTLS; without them the SMTP server offers none. */
    INTAKE_TLS_CERT_FILE: pemFile,
    INTAKE_TLS_KEY_FILE: pemFile,
    /** Largest message accepted (SIZE in EHLO, 552 past it). */
    INTAKE_MAX_MESSAGE_BYTES: z.coerce.number().int().min(1024).max(100 * 1024 * 1024).default(MAX_REPORT_UPLOAD_BYTES),
    /** Connections open at once from one client address. */
    INTAKE_MAX_CONNECTIONS_PER_CLIENT: z.coerce.number().int().min(1).max(10_000).default(10),
    /** Connections open at once in all. */
    INTAKE_MAX_CONNECTIONS: z.coerce.number().int().min(1).max(100_000).default(500),
    /** Messages accepted from one client address per minute (451 past it: the sender retries later). */
    INTAKE_MESSAGES_PER_CLIENT_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000).default(120),
    /** Run the `intake` queue's worker (reading reports, naming sources, pruning) in this process. */
    INTAKE_WORKER: envBoolean.default(true),
    /** Messages read at once per process: parsing is CPU, so about one per core. */
    INTAKE_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(2),
    /** Resolvers for naming source addresses (reverse DNS, service SPF ranges), as the scanner's; empty means the system's. */
    DNS_SERVERS: dnsServerList,
    DNS_TIMEOUT_MS: z.coerce.number().int().min(1).max(60_000).default(2_000),
  })
  .superRefine(requireProductionSettings)
  .superRefine((env, ctx) => {
    if (env.NODE_ENV === 'production' && env.INTAKE_DOMAIN === DEV_INTAKE_DOMAIN) {
      ctx.addIssue({ code: 'custom', path: ['INTAKE_DOMAIN'], message: 'must be set in production (the domain whose MX points at the intake)' });
    }
    if (Boolean(env.INTAKE_TLS_CERT_FILE) !== Boolean(env.INTAKE_TLS_KEY_FILE)) {
      ctx.addIssue({ code: 'custom', path: ['INTAKE_TLS_CERT_FILE'], message: 'INTAKE_TLS_CERT_FILE and INTAKE_TLS_KEY_FILE go together' });
    }
  });

export type Env = ReturnType<typeof loadEnv>;

export function loadEnv(source: Record<string, string | undefined> = process.env) {
  return parseEnv('intake', schema, source);
}
