import net from 'node:net';
import ipaddr from 'ipaddr.js';
import { z } from 'zod';

/** "false", "0", "no", "off" and "" read as false; a plain `z.coerce.boolean()` would read "false" as true. */
export const envBoolean = z
  .union([z.boolean(), z.string()])
  .transform((v) => (typeof v === 'boolean' ? v : !['false', '0', 'no', 'off', ''].includes(v.trim().toLowerCase())));

export const envPort = (fallback: number) => z.coerce.number().int().min(0).max(65535).default(fallback);

/** proxy-addr's names for address ranges, which Fastify's `trustProxy` list accepts besides addresses and CIDRs. */
const PROXY_RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** Who may set X-Forwarded-* when TRUSTED_PROXIES is unset (development and tests): this host only. */
export const LOOPBACK_PROXIES: readonly string[] = ['loopback'];

const isAddressOrCidr = (entry: string) => (entry.includes('/') ? ipaddr.isValidCIDR(entry) : ipaddr.isValid(entry));

/**
 * TRUSTED_PROXIES: the peers whose X-Forwarded-For/-Proto/-Host a service believes, as a comma-separated
 * list of addresses, CIDRs or proxy-addr's range names (`loopback`, `linklocal`, `uniquelocal`), or
 * `none`. A peer outside it is the client itself, whatever its headers claim.
 */
export const trustedProxyList = z.string().transform((value, ctx): string[] => {
  const entries = value.split(',').map((s) => s.trim()).filter(Boolean);
  if (entries.length === 1 && entries[0]!.toLowerCase() === 'none') return [];
  const bad = entries.filter((e) => !PROXY_RANGE_NAMES.has(e) && !isAddressOrCidr(e));
  if (entries.length === 0 || bad.length > 0) {
    ctx.addIssue({ code: 'custom', message: `expected "none" or addresses and CIDRs such as "10.0.0.0/8, 192.0.2.1", got "${bad.join(', ') || value}"` });
    return z.NEVER;
  }
  return entries;
});

/** A CIDR of every address (0.0.0.0/0, ::/0): trusting it trusts any client's own headers. */
const trustsEveryone = (entries: readonly string[]) => entries.some((e) => e.includes('/') && ipaddr.isValidCIDR(e) && ipaddr.parseCIDR(e)[1] === 0);

/** "1.1.1.1, 127.0.0.1:5353, [::1]:53" → entries `dns.setServers` takes; blank → [] (the system's). */
export const dnsServerList = z
  .string()
  .default('')
  .transform((value, ctx) => {
    const entries = value.split(',').map((s) => s.trim()).filter(Boolean);
    for (const entry of entries) {
      const host = /^\[([^\]]+)\](?::\d+)?$/.exec(entry)?.[1] ?? (net.isIPv6(entry) ? entry : entry.split(':')[0]!);
      const port = /^\[.+\]:(\d+)$/.exec(entry)?.[1] ?? (net.isIPv6(entry) ? undefined : entry.split(':')[1]);
      if (net.isIP(host) === 0 || (port !== undefined && !(Number(port) >= 1 && Number(port) <= 65535))) {
        ctx.addIssue({ code: 'custom', message: `"${entry}" is not an IP address with an optional port` });
        return z.NEVER;
      }
    }
    return entries;
  });

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
  /** Lets the outbound guard (outbound-guard.ts) connect to 127.0.0.0/8 and ::1, for tests' fixture servers; refused in production. */
  ALLOW_LOOPBACK_TARGETS: envBoolean.default(false),
  JWT_SECRET: z.string().min(32, 'must be at least 32 characters').default(DEV_JWT_SECRET),
  ADMIN_EMAIL: z.string().email().optional(),
  /** Secure `__Host-token` session cookie; unset, on in production only (`sessionCookie`). Every service reads the cookie. */
  COOKIE_SECURE: envBoolean.optional(),
  /** Unset: loopback only (createApp's default); production requires it (`requireProductionSettings`). */
  TRUSTED_PROXIES: trustedProxyList.optional(),
});

/**
 * The development defaults every service refuses outside development (cross-field rules zod's object
 * cannot state alone), applied by each service's env schema: the development JWT secret anywhere but
 * development and tests (a deployment that forgets JWT_SECRET stops instead of signing with a public
 * key), loopback targets in production (they let scans and probes reach this host), and a production
 * service that does not name the proxies it trusts or trusts every address (either way a client could
 * choose the address that rate limits and login backoff count).
 */
export const requireProductionSettings = <T extends { NODE_ENV: string; JWT_SECRET: string; ALLOW_LOOPBACK_TARGETS?: boolean; TRUSTED_PROXIES?: readonly string[] }>(
  env: T,
  ctx: z.RefinementCtx,
) => {
  if (env.NODE_ENV !== 'development' && env.NODE_ENV !== 'test' && env.JWT_SECRET === DEV_JWT_SECRET) {
    ctx.addIssue({ code: 'custom', path: ['JWT_SECRET'], message: `must be set to a secret of your own when NODE_ENV is ${env.NODE_ENV}` });
  }
  if (env.NODE_ENV === 'production' && env.ALLOW_LOOPBACK_TARGETS) {
    ctx.addIssue({ code: 'custom', path: ['ALLOW_LOOPBACK_TARGETS'], message: 'must not be set in production (it lets scans and probes reach this host)' });
  }
  if (env.NODE_ENV === 'production' && env.TRUSTED_PROXIES === undefined) {
    ctx.addIssue({
      code: 'custom',
      path: ['TRUSTED_PROXIES'],
      message: 'must be set in production: the addresses or CIDRs of the proxies in front of this service (the gateway for a service, the load balancer for the gateway), or "none"',
    });
  }
  if (env.NODE_ENV === 'production' && env.TRUSTED_PROXIES && trustsEveryone(env.TRUSTED_PROXIES)) {
    ctx.addIssue({ code: 'custom', path: ['TRUSTED_PROXIES'], message: 'must not trust every address in production (any client could then pick its own)' });
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
