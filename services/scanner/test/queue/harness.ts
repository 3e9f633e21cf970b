import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { createLogger } from '@sendwell/server-kit';
import { arrivals, createTestDb, deleteKeys, startDnsServer, testRedisUrl, uniquePrefix, type TestDb, type TestDnsServer } from '@sendwell/testing';
import type { Worker } from 'bullmq';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { createDeps, type Deps } from '../../src/deps.js';
import { loadEnv, type Env } from '../../src/env.js';
import { factory } from '../scan/factory.js';
import { fixedChecksForQueueTests } from './fixed-checks.js';

export const silentLogger = createLogger('test', 'silent');

/** One fixture zone the queue tests' scans resolve against (the snapshot still queries DNS). */
export async function startQueueTestDns(): Promise<TestDnsServer> {
  return startDnsServer({
    records: {
      '*.example': { A: ['192.0.2.1'], MX: [{ priority: 10, exchange: 'mx.example' }], TXT: ['v=spf1 -all'], NS: ['ns1.example', 'ns2.example'] },
      'mx.example': { A: ['192.0.2.25'] },
    },
  });
}

export function testEnv(vars: { databaseUrl: string; redisUrl: string; prefix: string; dns: TestDnsServer; extra?: Record<string, string> }): Env {
  return loadEnv({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATABASE_URL: vars.databaseUrl,
    REDIS_URL: vars.redisUrl,
    QUEUE_PREFIX: vars.prefix,
    DNS_SERVERS: vars.dns.url,
    DNS_TIMEOUT_MS: '500',
    SCAN_TLS_PORT: '1',
    SCAN_HTTPS_PORT: '1',
    SCAN_SMTP_PORT: '1',
    ALLOW_LOOPBACK_TARGETS: 'true',
    ...vars.extra,
  });
}

export function envVars(env: Env, extra: Record<string, string> = {}): Record<string, string> {
  return {
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATABASE_URL: env.DATABASE_URL,
    REDIS_URL: env.REDIS_URL,
    QUEUE_PREFIX: env.QUEUE_PREFIX,
    DNS_SERVERS: env.DNS_SERVERS.map((s) => `${s.host}:${s.port}`).join(','),
    DNS_TIMEOUT_MS: String(env.DNS_TIMEOUT_MS),
    ALLOW_LOOPBACK_TARGETS: String(env.ALLOW_LOOPBACK_TARGETS),
    ...extra,
  };
}

export interface WorkerEvent {
  event: 'ready' | 'active' | 'completed' | 'failed' | 'stalled' | 'closed';
  pid: number;
  jobId?: string;
  scanId?: string;
}

export interface WorkerProcess {
  child: ChildProcess;
  events: WorkerEvent[];
  waitFor(predicate: (e: WorkerEvent) => boolean, timeoutMs?: number): Promise<WorkerEvent>;
  exited: Promise<number | null>;
}

const script = fileURLToPath(new URL('./worker-process.ts', import.meta.url));
const scannerRoot = fileURLToPath(new URL('../..', import.meta.url));

/**
 * A real scanner worker process (tsx), configured by environment like production, that reports its
 * job events as JSON lines on stdout. `TEST_CHECK_DELAY_MS` and `TEST_CHECK_BLOCK_MS` shape the fixed checks; the `SCAN_*` settings the
 * lock and stalled-check timings.
 */
export function spawnWorker(env: Record<string, string>): WorkerProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', script], {
    cwd: scannerRoot,
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const events = arrivals<WorkerEvent>();
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  createInterface({ input: child.stdout! }).on('line', (line) => {
    try {
      events.push(JSON.parse(line) as WorkerEvent);
    } catch {
      return;
    }
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return {
    child,
    events: events.items,
    exited,
    waitFor: (predicate, timeoutMs = 40_000) =>
      events.waitFor(predicate, timeoutMs, () => `worker ${child.pid}: no matching event in ${timeoutMs} ms; events ${JSON.stringify(events.items)}; stderr ${stderr.slice(-2000)}`),
  };
}

/** What every queue, sweeper and recovery test file works with; filled in before its first test. */
export interface QueueTestScanner {
  testDb: TestDb;
  dns: TestDnsServer;
  /** The scanner's own deps (fixed checks, no default metrics) on the test database and a unique prefix. */
  deps: Deps;
  f: ReturnType<typeof factory>;
  prefix: string;
  /** Workers a test starts; closed after it. */
  workers: Worker[];
}

/**
 * The set-up those files share: a test database, the fixture DNS and the scanner's deps under a unique
 * BullMQ prefix (`extra` adds settings). After each test it closes the test's workers and empties the
 * scan queue (a file's own afterEach, registered later, runs before that); after the file it closes
 * everything and deletes the prefix's keys.
 */
export function useQueueTestScanner(label: string, extra: Record<string, string> = {}): QueueTestScanner {
  const ctx = { prefix: uniquePrefix(label), workers: [] as Worker[] } as QueueTestScanner;
  beforeAll(async () => {
    ctx.testDb = await createTestDb();
    ctx.dns = await startQueueTestDns();
    ctx.deps = createDeps(testEnv({ databaseUrl: ctx.testDb.url, redisUrl: testRedisUrl(), prefix: ctx.prefix, dns: ctx.dns, extra }), silentLogger, {
      checks: fixedChecksForQueueTests(),
      collectDefaultMetrics: false,
    });
    ctx.f = factory(ctx.testDb.db);
  });
  afterEach(async () => {
    await Promise.all(ctx.workers.splice(0).map((w) => w.close()));
    await ctx.deps.queues.scan.obliterate({ force: true });
  });
  afterAll(async () => {
    await ctx.deps?.close();
    await ctx.dns?.close();
    await deleteKeys(ctx.prefix);
    await ctx.testDb?.close();
  });
  return ctx;
}
