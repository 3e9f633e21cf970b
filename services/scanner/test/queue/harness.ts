import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { createLogger } from '@sendwell/server-kit';
import { arrivals, startDnsServer, type TestDnsServer } from '@sendwell/testing';
import { loadEnv, type Env } from '../../src/env.js';

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
    ...extra,
  };
}

export interface WorkerEvent {
  event: 'ready' | 'active' | 'completed' | 'failed' | 'closed';
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
 * job events as JSON lines on stdout. `TEST_*` settings pick the fixed checks' delay and lock timings.
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
    waitFor: (predicate, timeoutMs = 20_000) =>
      events.waitFor(predicate, timeoutMs, () => `worker ${child.pid}: no matching event in ${timeoutMs} ms; events ${JSON.stringify(events.items)}; stderr ${stderr.slice(-2000)}`),
  };
}
