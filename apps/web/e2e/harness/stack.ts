import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createTestDatabase, type TestDatabase } from '@sendwell/db/testing';
import { resolveTestServices, startDnsServer, startSmtpServer, type TestDnsServer, type TestServices, type TestSmtpServer } from '@sendwell/testing';
import { Redis } from 'ioredis';
import { fixtureRecords } from './fixture-dns';
import { startMailbox } from './mailbox';
import { freePort } from './ports';

export const WEB_DIR = fileURLToPath(new URL('../..', import.meta.url));
export const REPO_ROOT = join(WEB_DIR, '..', '..');
export const LOG_DIR = join(WEB_DIR, 'e2e', '.logs');

const SERVICES = ['auth', 'domains', 'billing', 'reports', 'scanner', 'gateway'] as const;
type ServiceName = (typeof SERVICES)[number];
const HEALTH_TIMEOUT_MS = 60_000;
const STOP_GRACE_MS = 10_000;

export interface Stack {
  /** The gateway: the built web app and every /api call, as a browser sees them. */
  baseUrl: string;
  /** Loopback HTTP view of the mails the SMTP server received (see mailbox.ts). */
  mailboxUrl: string;
  smtp: TestSmtpServer;
  dns: TestDnsServer;
  database: TestDatabase;
  ports: Record<ServiceName, number>;
  stop(): Promise<void>;
}

function newestMtime(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...readdirSync(path).map((entry) => newestMtime(join(path, entry))));
}

/** Runs `vite build` when dist is missing or older than the sources it is built from. */
export function buildWebIfStale(): void {
  const built = join(WEB_DIR, 'dist', 'index.html');
  const sources = [join(WEB_DIR, 'src'), join(WEB_DIR, 'scripts'), join(WEB_DIR, 'index.html'), join(WEB_DIR, 'vite.config.ts'), join(REPO_ROOT, 'packages', 'contracts', 'src')];
  if (existsSync(built) && statSync(built).mtimeMs >= Math.max(...sources.map(newestMtime))) return;
  const vite = join(WEB_DIR, 'node_modules', 'vite', 'bin', 'vite.js');
  // Vitest sets NODE_ENV=test, which would make Vite bundle React's development build.
  const result = spawnSync(process.execPath, [vite, 'build', '--logLevel', 'warn'], {
    cwd: WEB_DIR,
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production' },
  });
  if (result.status !== 0) throw new Error(`vite build failed (exit ${result.status})`);
}

async function waitForHealth(name: string, url: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + HEALTH_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${name} exited with code ${child.exitCode} before answering /health (see e2e/.logs/${name}.log)`);
    try {
      const res = await fetch(url);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${name} did not answer ${url} within ${HEALTH_TIMEOUT_MS / 1000} s (see e2e/.logs/${name}.log)`);
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
    for (const prefix of prefixes) {
      let cursor = '0';
      do {
        const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
        cursor = next;
        if (keys.length) await redis.del(...keys);
      } while (cursor !== '0');
    }
  } finally {
    redis.disconnect();
  }
}

/**
 * Starts the whole real stack for one run: a fresh database cloned from the migrated template, a
 * unique Redis prefix for queues and rate limits, a real SMTP server, a fixture DNS server, and every
 * service as a child process (`node --import tsx services/<svc>/src/main.ts`) on free ports, waiting
 * for each /health. `stop()` stops them all and drops the database.
 */
export async function startStack(): Promise<Stack> {
  mkdirSync(LOG_DIR, { recursive: true });
  const backing: TestServices = await resolveTestServices();
  const database = await createTestDatabase(backing.postgresUrl);
  const smtp = await startSmtpServer();
  const dns = await startDnsServer({ records: fixtureRecords, ttl: 5 });
  const mailbox = await startMailbox(smtp);
  const prefix = `e2e-${randomBytes(4).toString('hex')}`;
  const ports = Object.fromEntries(await Promise.all(SERVICES.map(async (s) => [s, await freePort()] as const))) as Record<ServiceName, number>;
  const closedTlsPort = await freePort();
  const baseUrl = `http://127.0.0.1:${ports.gateway}`;
  const url = (s: ServiceName) => `http://127.0.0.1:${ports[s]}`;

  const common: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NODE_ENV: 'test',
    LOG_LEVEL: 'warn',
    HOST: '127.0.0.1',
    DATABASE_URL: database.url,
    DATABASE_POOL_MAX: '5',
    REDIS_URL: backing.redisUrl,
    QUEUE_PREFIX: prefix,
  };
  const env: Record<ServiceName, NodeJS.ProcessEnv> = {
    auth: { REQUIRE_EMAIL_VERIFICATION: 'true', APP_URL: baseUrl, SMTP_URL: smtp.url, MAIL_FROM: 'Sendwell <no-reply@sendwell.test>' },
    domains: {},
    billing: {},
    reports: {},
    scanner: {
      DNS_SERVERS: dns.url,
      DNS_TIMEOUT_MS: '1000',
      SCAN_AUTHORITATIVE_DNS_PORT: String(dns.port),
      // Nothing listens there: the SSL check fails fast instead of reaching out.
      SCAN_TLS_PORT: String(closedTlsPort),
      SCAN_TIMEOUT_MS: '2000',
    },
    gateway: {
      AUTH_URL: url('auth'),
      DOMAINS_URL: url('domains'),
      BILLING_URL: url('billing'),
      REPORTS_URL: url('reports'),
      SCANNER_URL: url('scanner'),
      WEB_DIST_DIR: join(WEB_DIR, 'dist'),
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
    await Promise.allSettled([smtp.close(), dns.close(), mailbox.close()]);
    await Promise.allSettled([database.drop(), deleteRedisKeys(backing.redisUrl, [prefix])]);
    await backing.stop();
  };

  try {
    for (const name of SERVICES) {
      const log = createWriteStream(join(LOG_DIR, `${name}.log`));
      const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
        cwd: join(REPO_ROOT, 'services', name),
        env: { ...common, PORT: String(ports[name]), ...env[name] },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      child.stdout?.pipe(log);
      child.stderr?.pipe(log);
      children.set(name, child);
    }
    await Promise.all(SERVICES.map((name) => waitForHealth(name, `${url(name)}/health`, children.get(name)!)));
  } catch (error) {
    await stop();
    throw error;
  }
  return { baseUrl, mailboxUrl: mailbox.url, smtp, dns, database, ports, stop };
}
