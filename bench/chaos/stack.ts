/**
 * The stack the chaos drills break: its own database (cloned from the migrated template, dropped at
 * the end), its own redis-server on a free port (never the shared one: a drill empties it), the
 * fixture DNS server of the scanner bench, a "TLS" port that accepts and never answers (so each
 * scan lasts SCAN_TIMEOUT_MS, like one slow web server, and a kill always finds scans in flight), and
 * auth, domains, scanner and gateway under `pnpm start`'s own Supervisor, with this bench's ports.
 * The services that run as production get what it requires (lib/production.ts): secrets made for the
 * run and an SMTP sink of this process to mail. In smoke mode (lib/smoke.ts) the services run from
 * their sources and the scanner's timeouts, locks and sweeps are short, so the drills take seconds.
 */
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import { createDb, type Database } from '@sendwell/db';
import { createTestDatabase, type TestDatabase } from '@sendwell/db/testing';
import { createRedis, pingRedis } from '@sendwell/server-kit';
import { startSmtpServer, type TestSmtpServer } from '@sendwell/testing';
import { Supervisor } from '../../scripts/lib/processes.js';
import { serviceSpec, sourceServiceSpec } from '../../scripts/lib/services.js';
import { freePort, stopChild, waitForHealth } from '../lib/processes.js';
import { productionSecrets } from '../lib/production.js';
import { SMOKE } from '../lib/smoke.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SCANNER_BENCH = fileURLToPath(new URL('../scanner/', import.meta.url));
const SERVER_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
/** The services' application_name prefix (their deps.ts): the Postgres drill terminates only these sessions. */
export const SERVICE_APPLICATION_PREFIX = 'sendwell-';

export type ServiceName = 'auth' | 'domains' | 'scanner' | 'gateway';
const SERVICE_NAMES: ServiceName[] = ['auth', 'domains', 'scanner', 'gateway'];

export interface ChaosStack {
  db: Database;
  databaseName: string;
  /** A client of the bench's own redis-server. */
  redis: ReturnType<typeof createRedis>;
  /** The SMTP sink the services mail (verification mail included). */
  smtp: TestSmtpServer;
  supervisor: Supervisor;
  ports: Record<ServiceName, number>;
  gatewayUrl: string;
  healthUrl(service: ServiceName): string;
  close(): Promise<void>;
}

/** Starts everything; on failure stops what had started, then throws. */
export async function startStack(options: { fixtureDomains: number; serviceLog: string; log: (message: string) => void }): Promise<ChaosStack> {
  const cleanups: (() => Promise<unknown>)[] = [];
  const close = async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch((error: unknown) => options.log(`clean-up failed: ${String(error)}`));
  };
  try {
    const testDb: TestDatabase = await createTestDatabase(SERVER_URL);
    cleanups.push(() => testDb.drop());
    const db = createDb({ connectionString: testDb.url, max: 2, applicationName: 'bench-chaos' });
    cleanups.push(() => db.destroy());

    const redisPort = await freePort();
    const redisServer = spawn('redis-server', ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    cleanups.push(() => stopChild(redisServer));
    const redisUrl = `redis://127.0.0.1:${redisPort}`;
    await until(() => pingRedis(redisUrl), 10_000, 'redis-server did not answer');
    const redis = createRedis(redisUrl, 'client');
    cleanups.push(() => redis.quit());

    const dns = fork(`${SCANNER_BENCH}dns-fixture.process.ts`, [], {
      cwd: SCANNER_BENCH,
      execArgv: ['--import', 'tsx'],
      env: { ...process.env, BENCH_DOMAINS: String(options.fixtureDomains) },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    cleanups.push(() => stopFork(dns));
    // The fixture waits for the DANE records' digests before it signs the world; the drills' scans
    // never reach an MX host (SCAN_SMTP_PORT 1), so there are none.
    dns.send({ tlsa: {} });
    const dnsPort = await readyPort(dns);

    const silentTls = await listenSilently();
    cleanups.push(() => silentTls.close());

    // Production refuses the mail outbox: auth and domains mail this sink.
    const smtp = await startSmtpServer();
    cleanups.push(() => smtp.close());
    const { JWT_SECRET, INTEGRATIONS_ENCRYPTION_KEYS } = productionSecrets();

    const ports = Object.fromEntries(await Promise.all(SERVICE_NAMES.map(async (name) => [name, await freePort()] as const))) as Record<ServiceName, number>;
    const common = {
      ...process.env,
      DATABASE_URL: testDb.url,
      REDIS_URL: redisUrl,
      QUEUE_PREFIX: 'chaos',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      JWT_SECRET,
      NODE_ENV: 'production',
      // The gateway reaches every service over loopback.
      TRUSTED_PROXIES: 'loopback',
    };
    const env: Record<ServiceName, NodeJS.ProcessEnv> = {
      auth: { ...common, PORT: String(ports.auth), SMTP_URL: smtp.url },
      domains: { ...common, PORT: String(ports.domains), SMTP_URL: smtp.url, INTEGRATIONS_ENCRYPTION_KEYS },
      // Development: production refuses ALLOW_LOOPBACK_TARGETS, which the fixtures on loopback need.
      scanner: {
        ...common,
        NODE_ENV: 'development',
        PORT: String(ports.scanner),
        ALLOW_LOOPBACK_TARGETS: 'true',
        DNS_SERVERS: `127.0.0.1:${dnsPort}`,
        SCAN_AUTHORITATIVE_DNS_PORT: String(dnsPort),
        SCAN_TLS_PORT: String(silentTls.port),
        SCAN_HTTPS_PORT: String(silentTls.port),
        SCAN_SMTP_PORT: '1',
        // Smoke: a scan lasts 1 s (the silent TLS port), a killed worker's scans are taken over
        // within ~3 s and lost ones re-queued within ~3 s, so each drill takes seconds.
        ...(SMOKE
          ? { SCAN_TIMEOUT_MS: '1000', SCAN_LOCK_DURATION_MS: '2000', SCAN_STALLED_INTERVAL_MS: '1000', SCAN_SWEEP_EVERY_MS: '1000', SCAN_RECOVERY_LEASE_MS: '2000' }
          : {}),
      },
      gateway: {
        ...common,
        PORT: String(ports.gateway),
        INTERNAL_PORT: '0',
        AUTH_URL: `http://127.0.0.1:${ports.auth}`,
        DOMAINS_URL: `http://127.0.0.1:${ports.domains}`,
        SCANNER_URL: `http://127.0.0.1:${ports.scanner}`,
        RATE_LIMIT_ENABLED: 'false',
      },
    };

    const serviceLog = createWriteStream(options.serviceLog);
    cleanups.push(() => new Promise((resolve) => serviceLog.end(resolve)));
    const supervisor = new Supervisor(SERVICE_NAMES, {
      onGiveUp: (exit) => options.log(`supervisor gave up on ${exit.name}`),
      log: (message) => options.log(`supervisor: ${message}`),
      output: (line) => serviceLog.write(`${line}\n`),
    });
    cleanups.push(() => supervisor.stopAll(10_000));
    // Compiled as `pnpm start` runs them; from their sources in smoke mode (no build).
    SERVICE_NAMES.forEach((name, i) => supervisor.start(SMOKE ? sourceServiceSpec(ROOT, name, env[name]) : serviceSpec(ROOT, name, env[name], false), i));
    const healthUrl = (service: ServiceName) => `http://127.0.0.1:${ports[service]}/health`;
    await Promise.all(SERVICE_NAMES.map((name) => waitForHealth(healthUrl(name), { timeoutMs: 90_000 })));

    return { db, databaseName: testDb.name, redis, smtp, supervisor, ports, gatewayUrl: `http://127.0.0.1:${ports.gateway}`, healthUrl, close };
  } catch (error) {
    await close();
    throw error;
  }
}

async function until(check: () => Promise<boolean>, timeoutMs: number, message: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(message);
    await new Promise((r) => setTimeout(r, 100));
  }
}

function readyPort(child: ChildProcess): Promise<number> {
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`fixture DNS server exited (${code})`)));
    child.on('message', (message: { type: string; port: number }) => {
      if (message.type === 'ready') resolve(message.port);
    });
  });
}

/** The DNS fixture closes its server when the IPC channel closes (dns-fixture.process.ts). */
function stopFork(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  if (child.connected) child.disconnect();
  const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
  return exited.finally(() => clearTimeout(timer));
}

/** Accepts connections and never writes a byte: a TLS handshake against it waits for the scanner's timeout. */
async function listenSilently(): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (typeof address !== 'object' || !address) throw new Error('no port');
  return {
    port: address.port,
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
