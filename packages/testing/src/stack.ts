import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createTestDatabase, type TestDatabase } from '@sendwell/db/testing';
import { Redis } from 'ioredis';
import { startDnsServer, type DnsFixtureRecords, type TestDnsServer } from './dns-server.js';
import { blocklistFixtureZones, FIXTURE_BLOCKLISTS } from './fixture-zones.js';
import { startHttpsReceiver, type HttpsReceiver } from './https-receiver.js';
import { startMailbox } from './mailbox.js';
import { deletePrefixedKeys } from './redis-keys.js';
import { testEnv } from './env.js';
import { freePort } from './ports.js';
import { resolveTestServices, type TestServices } from './services.js';
import { startSmtpServer, type TestSmtpServer } from './smtp.js';
import { startStripeStandIn, type StripeStandIn } from './stripe/server.js';

const REPO_ROOT = fileURLToPath(new URL('../../..', import.meta.url));

const SERVICES = ['auth', 'domains', 'billing', 'reports', 'scanner', 'intake', 'gateway'] as const;
/** The report domain of the stack's intake: its addresses are `<token>@` this. */
export const STACK_INTAKE_DOMAIN = 'reports.sendwell.test';
export type ServiceName = (typeof SERVICES)[number];
const HEALTH_TIMEOUT_MS = 60_000;
const STOP_GRACE_MS = 10_000;

/** The stack's administrator account (ADMIN_EMAIL of every service): whoever registers it sees /server-stats. */
export const STACK_ADMIN_EMAIL = 'admin@sendwell.test';

export interface StackOptions {
  /** Each service logs to `<logDir>/<service>.log`. */
  logDir: string;
  /** The names the fixture DNS server answers for; every other name is NXDOMAIN (not listed). */
  dnsRecords: Record<string, DnsFixtureRecords>;
  /** The built web app the gateway serves (the gateway's own default when omitted). */
  webDistDir?: string;
  /** Start of the run's Redis prefix, so a left-over key says which suite wrote it. */
  label?: string;
  /** Settings per service over the defaults below (e.g. higher rate limits). */
  env?: Partial<Record<ServiceName, NodeJS.ProcessEnv>>;
}

export interface Stack {
  /** The gateway: the built web app and every /api call, as a browser sees them. */
  baseUrl: string;
  /** Loopback HTTP view of the mails the SMTP server received (see mailbox.ts). */
  mailboxUrl: string;
  smtp: TestSmtpServer;
  dns: TestDnsServer;
  /** The HTTPS server alert deliveries go to (webhook URLs may point at `receiver.url`). */
  receiver: HttpsReceiver;
  /** Stripe for the billing service: the stand-in, delivering its webhooks through the gateway. */
  stripe: StripeStandIn;
  /** The keys billing runs with (any `sk_test_` key works against the stand-in). */
  stripeKeys: { secretKey: string; publishableKey: string; webhookSecret: string };
  database: TestDatabase;
  redisUrl: string;
  /** The run's prefix of BullMQ keys (`QUEUE_PREFIX`); the gateway's rate limits use `<prefix>:rl`. */
  queuePrefix: string;
  ports: Record<ServiceName, number>;
  /** The intake's SMTP port (reports are mailed to `<token>@STACK_INTAKE_DOMAIN` there). */
  intakeSmtpPort: number;
  stop(): Promise<void>;
}

async function waitForHealth(name: string, url: string, child: ChildProcess, logDir: string): Promise<void> {
  const deadline = Date.now() + HEALTH_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${name} exited with code ${child.exitCode} before answering /health (see ${logDir}/${name}.log)`);
    try {
      const res = await fetch(url);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${name} did not answer ${url} within ${HEALTH_TIMEOUT_MS / 1000} s (see ${logDir}/${name}.log)`);
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

async function deleteRedisKeys(redisUrl: string, prefixes: string[]): Promise<void> {
  const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    for (const prefix of prefixes) await deletePrefixedKeys(redis, prefix);
  } finally {
    redis.disconnect();
  }
}

/**
 * Starts the whole real stack for one run (browser tests, the API fuzz test, benches): a fresh database cloned from the migrated template, a
 * unique Redis prefix for queues and rate limits, a real SMTP server, a fixture DNS server, the Stripe stand-in, and every
 * service as a child process (`node --import tsx services/<svc>/src/main.ts`) on free ports, waiting
 * for each /health. `stop()` stops them all and drops the database.
 */
export async function startStack({ logDir, dnsRecords, webDistDir, label = 'stack', env: overrides = {} }: StackOptions): Promise<Stack> {
  mkdirSync(logDir, { recursive: true });
  const backing: TestServices = await resolveTestServices();
  const database = await createTestDatabase(backing.postgresUrl);
  const smtp = await startSmtpServer();
  // The fixture block lists answer their test points, so the scanner's self-test keeps them in use.
  const dns = await startDnsServer({ records: { ...blocklistFixtureZones(), ...dnsRecords }, ttl: 5 });
  const mailbox = await startMailbox(smtp);
  const prefix = `${label}-${randomBytes(4).toString('hex')}`;
  const ports = Object.fromEntries(await Promise.all(SERVICES.map(async (s) => [s, await freePort()] as const))) as Record<ServiceName, number>;
  const closedTlsPort = await freePort();
  const intakeSmtpPort = await freePort();
  const baseUrl = `http://127.0.0.1:${ports.gateway}`;
  const url = (s: ServiceName) => `http://127.0.0.1:${ports[s]}`;
  const stripeKeys = { secretKey: 'sk_test_stack', publishableKey: 'pk_test_stack', webhookSecret: 'whsec_stack' };
  const stripe = await startStripeStandIn({ port: 0, webhookUrl: `${baseUrl}/api/webhooks/stripe`, webhookSecret: stripeKeys.webhookSecret });
  // Stands for Slack's, Discord's and PagerDuty's APIs and for users' webhook endpoints (alert delivery).
  const receiver = await startHttpsReceiver();

  const common: NodeJS.ProcessEnv = {
    PATH: testEnv.path,
    HOME: testEnv.home,
    NODE_ENV: 'test',
    LOG_LEVEL: 'warn',
    HOST: '127.0.0.1',
    DATABASE_URL: database.url,
    DATABASE_POOL_MAX: '5',
    REDIS_URL: backing.redisUrl,
    QUEUE_PREFIX: prefix,
    ADMIN_EMAIL: STACK_ADMIN_EMAIL,
  };
  const env: Record<ServiceName, NodeJS.ProcessEnv> = {
    auth: { REQUIRE_EMAIL_VERIFICATION: 'true', APP_URL: baseUrl, SMTP_URL: smtp.url, MAIL_FROM: 'Sendwell <no-reply@sendwell.test>', BILLING_URL: url('billing') },
    // The email verification tool's MX lookups: the fixture zones too, never the internet.
    domains: {
      DNS_SERVERS: dns.url,
      DNS_TIMEOUT_MS: '1000',
      APP_URL: baseUrl,
      SMTP_URL: smtp.url,
      MAIL_FROM: 'Sendwell <alerts@sendwell.test>',
      // Alert deliveries reach the receiver on loopback, over TLS with its test CA.
      ALLOW_LOOPBACK_TARGETS: 'true',
      OUTBOUND_EXTRA_CA_FILE: receiver.caFile,
      SLACK_API_URL: `${receiver.url}/slack/api`,
      DISCORD_API_URL: `${receiver.url}/discord/api/v10`,
      PAGERDUTY_EVENTS_URL: `${receiver.url}/pagerduty`,
    },
    billing: {
      STRIPE_SECRET_KEY: stripeKeys.secretKey,
      STRIPE_PUBLISHABLE_KEY: stripeKeys.publishableKey,
      STRIPE_WEBHOOK_SECRET: stripeKeys.webhookSecret,
      STRIPE_API_URL: stripe.url,
      APP_URL: baseUrl,
      SMTP_URL: smtp.url,
      MAIL_FROM: 'Sendwell <billing@sendwell.test>',
    },
    reports: { APP_URL: baseUrl, SMTP_URL: smtp.url, MAIL_FROM: 'Sendwell <reports@sendwell.test>' },
    scanner: {
      DNS_SERVERS: dns.url,
      DNS_TIMEOUT_MS: '1000',
      SCAN_AUTHORITATIVE_DNS_PORT: String(dns.port),
      // Nothing listens there: the SSL check fails fast instead of reaching out.
      SCAN_TLS_PORT: String(closedTlsPort),
      SCAN_HTTPS_PORT: String(closedTlsPort),
      SCAN_SMTP_PORT: String(closedTlsPort),
      DNSBL_IP_ZONES: FIXTURE_BLOCKLISTS.ip,
      DNSBL_DOMAIN_ZONES: FIXTURE_BLOCKLISTS.domain,
      SCAN_TIMEOUT_MS: '2000',
      INTAKE_DOMAIN: STACK_INTAKE_DOMAIN,
    },
    // Names report sources through the fixture zones too.
    intake: {
      DNS_SERVERS: dns.url,
      DNS_TIMEOUT_MS: '1000',
      INTAKE_DOMAIN: STACK_INTAKE_DOMAIN,
      INTAKE_SMTP_PORT: String(intakeSmtpPort),
      INTAKE_PUBLIC_URL: baseUrl,
    },
    gateway: {
      AUTH_URL: url('auth'),
      DOMAINS_URL: url('domains'),
      BILLING_URL: url('billing'),
      REPORTS_URL: url('reports'),
      SCANNER_URL: url('scanner'),
      INTAKE_URL: url('intake'),
      ...(webDistDir ? { WEB_DIST_DIR: webDistDir } : {}),
      // Any free port for /metrics and /health/ready: the fixed default may be a running `pnpm start`'s.
      INTERNAL_PORT: '0',
      RATE_LIMIT_PREFIX: `${prefix}:rl`,
      // Real limits, raised so one run's sign-ups and logins from one address stay under them.
      RATE_LIMIT_LOGIN: '200/1m',
      RATE_LIMIT_REGISTER: '200/1h',
      RATE_LIMIT_FORGOT_PASSWORD: '200/1h',
      RATE_LIMIT_RESET_PASSWORD: '200/1h',
      RATE_LIMIT_QUICK_CHECK: '200/1m',
      RATE_LIMIT_EMAIL_VERIFY: '200/1m',
    },
  };

  const children = new Map<ServiceName, ChildProcess>();
  const stop = async () => {
    await Promise.all([...children.values()].map(stopChild));
    await Promise.allSettled([smtp.close(), dns.close(), mailbox.close(), stripe.close(), receiver.close()]);
    await Promise.allSettled([database.drop(), deleteRedisKeys(backing.redisUrl, [prefix])]);
    await backing.stop();
  };

  try {
    for (const name of SERVICES) {
      const log = createWriteStream(join(logDir, `${name}.log`));
      const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
        cwd: join(REPO_ROOT, 'services', name),
        env: { ...common, PORT: String(ports[name]), ...env[name], ...overrides[name] },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      child.stdout?.pipe(log);
      child.stderr?.pipe(log);
      children.set(name, child);
    }
    await Promise.all(SERVICES.map((name) => waitForHealth(name, `${url(name)}/health`, children.get(name)!, logDir)));
  } catch (error) {
    await stop();
    throw error;
  }
  return { baseUrl, mailboxUrl: mailbox.url, smtp, dns, stripe, stripeKeys, receiver, database, redisUrl: backing.redisUrl, queuePrefix: prefix, ports, intakeSmtpPort, stop };
}

export interface ServiceProcess {
  url: string;
  port: number;
  stop(): Promise<void>;
}

/**
 * One service as a child process, as `startStack` runs each (for a service's tests that need
 * another service for real, e.g. auth's account deletion calling billing). Logs go to `<logDir>/<name>.log`.
 */
export async function startServiceProcess(name: ServiceName, env: NodeJS.ProcessEnv, logDir: string, port?: number): Promise<ServiceProcess> {
  mkdirSync(logDir, { recursive: true });
  const listenOn = port ?? (await freePort());
  const url = `http://127.0.0.1:${listenOn}`;
  const log = createWriteStream(join(logDir, `${name}.log`));
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: join(REPO_ROOT, 'services', name),
    env: { PATH: testEnv.path, HOME: testEnv.home, NODE_ENV: 'test', LOG_LEVEL: 'warn', HOST: '127.0.0.1', ...env, PORT: String(listenOn) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.pipe(log);
  child.stderr?.pipe(log);
  try {
    await waitForHealth(name, `${url}/health`, child, logDir);
  } catch (error) {
    await stopChild(child);
    throw error;
  }
  return { url, port: listenOn, stop: () => stopChild(child) };
}
