/**
 * Start-up time (process start → /health answering), the CPU time that took (user + system, less
 * sensitive than wall time to a loaded machine) and resident memory once healthy, of each service run
 * from source with tsx and compiled with node (`pnpm build` first), one at a time so they do not
 * compete for the CPU. Prints a Markdown table of medians.
 *   node --import tsx scripts/measure-start.ts [runs=5]
 * Uses the database `sendwell_measure` (created and migrated) and Redis; reads DATABASE_URL and REDIS_URL.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ensureDatabase, migrateToLatest } from '@sendwell/db';
import { freeLoopbackPort, waitForHttp } from './lib/checks.js';
import { SERVICES, serviceSpec, sourceServiceSpec } from './lib/services.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const runs = Number(process.argv[2] ?? 5);
const server = new URL(process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/sendwell');
server.pathname = '/sendwell_measure';
const databaseUrl = server.toString();
await ensureDatabase(databaseUrl);
await migrateToLatest(databaseUrl);

/** User + system CPU time a Linux process has used, in ms (clock ticks are 10 ms on Linux). */
const cpuMs = (pid: number) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
};
/** VmRSS of a Linux process, in MB. */
const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN) / 1024;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

type Sample = { ms: number; cpu: number; mb: number };

let running: ChildProcess | undefined;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    running?.kill('SIGKILL');
    process.exit(1);
  });
}

async function measure(name: string, compiled: boolean): Promise<Sample> {
  const port = await freeLoopbackPort();
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    NODE_ENV: 'test',
    LOG_LEVEL: 'warn',
    DATABASE_URL: databaseUrl,
    REDIS_URL: process.env.REDIS_URL || 'redis://127.0.0.1:6379',
    QUEUE_PREFIX: `measure-${process.pid}`,
    PORT: String(port),
    INTERNAL_PORT: '0',
    // Any free port for the intake's SMTP listener: 2500 may be a running `pnpm start`'s.
    INTAKE_SMTP_PORT: '0',
  };
  const spec = compiled ? serviceSpec(root, name, env, false) : sourceServiceSpec(root, name, env);
  const started = performance.now();
  const child = (running = spawn(spec.command, spec.args, { cwd: spec.cwd, env: spec.env, stdio: 'ignore' }));
  try {
    if (!(await waitForHttp(`http://127.0.0.1:${port}/health`, { timeoutMs: 60_000, intervalMs: 10 }))) throw new Error(`${name} did not answer`);
    const ms = performance.now() - started;
    const cpu = cpuMs(child.pid!);
    await new Promise((r) => setTimeout(r, 1_000));
    return { ms, cpu, mb: rssMb(child.pid!) };
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
  }
}

process.stdout.write('| service | start, tsx → node dist (ms) | CPU to start, tsx → node dist (ms) | RSS, tsx → node dist (MB) |\n|---|---|---|---|\n');
for (const { name } of SERVICES) {
  const results = { tsx: [] as Sample[], dist: [] as Sample[] };
  for (let i = 0; i < runs; i++) {
    results.tsx.push(await measure(name, false));
    results.dist.push(await measure(name, true));
  }
  const cell = (key: keyof Sample) => `${median(results.tsx.map((r) => r[key])).toFixed(0)} → ${median(results.dist.map((r) => r[key])).toFixed(0)}`;
  process.stdout.write(`| ${name} | ${cell('ms')} | ${cell('cpu')} | ${cell('mb')} |\n`);
}
