/**
 * Scanner benchmark (issue 3, "Benchmark"; ARCHITECTURE.md "Scale, on paper"):
 *   1. full scans per second of one worker process, with DNS queries, CPU and latency per scan;
 *   2. memory over a 10,000-scan soak;
 *   3. SPF + DMARC of the same domains through mailauth, the peer;
 *   4. the scheduler claiming and enqueueing from a million-domain table.
 *
 * Processes: the fixture DNS server and the fixture TLS server are children of this one, the scanner
 * worker (sections 1-3) is a third child with `--expose-gc`, and section 4 runs here against the
 * Postgres and Redis servers. Nothing measured shares an event loop with what loads it.
 *
 *   pnpm --filter @sendwell/bench bench:scanner
 *   BENCH_SCANS=2000 BENCH_SOAK_SCANS=10000 BENCH_CONCURRENCY=50 BENCH_COMPARE_CONCURRENCY=200 BENCH_SOAK_CONCURRENCY=200
 *   BENCH_SWEEP_DOMAINS=1000000 BENCH_CPU_PROF=1
 * (the defaults; BENCH_CONCURRENCY, production's SCANNER_CONCURRENCY default, is the one judged, sections 1
 * and 3; section 1 is measured again at BENCH_COMPARE_CONCURRENCY, 0 to skip, and every check's status
 * counts of the two runs are compared: a share more than 2 percentage points apart fails the run, exit 1)
 */
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync, mkdirSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createTestCa, issueCert } from '@sendwell/testing';
import { benchDomains } from './fixture-zones.js';
import type { Verdict } from './report.js';
import { sweepBench } from './sweep.js';
import { loadAverage } from '../lib/processes.js';

const HERE = fileURLToPath(new URL('.', import.meta.url));
const BENCH = fileURLToPath(new URL('..', import.meta.url));
const DOMAINS = Number(process.env.BENCH_DOMAINS ?? 1_000);
const SWEEP_DOMAINS = Number(process.env.BENCH_SWEEP_DOMAINS ?? 1_000_000);
const SWEEP_BATCH = Number(process.env.BENCH_SWEEP_BATCH ?? 1_000);
/** Domains per TLS certificate (each with its www name): few key generations, certificates of a sane size. */
const DOMAINS_PER_CERT = 10;

function child(script: string, env: Record<string, string>, execArgv: string[] = []): ChildProcess {
  return fork(join(HERE, script), [], {
    cwd: BENCH,
    execArgv: ['--import', 'tsx', ...execArgv],
    env: { ...process.env, ...env },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
}

function message<T>(proc: ChildProcess, type: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const onMessage = (msg: { type: string } & T) => {
      if (msg.type !== type) return;
      proc.off('message', onMessage);
      proc.off('exit', onExit);
      resolve(msg);
    };
    const onExit = (code: number | null, signal: string | null) => reject(new Error(`child exited (${code ?? signal}) before "${type}"`));
    proc.on('message', onMessage);
    proc.once('exit', onExit);
  });
}

console.log(`scanner bench: ${cpus().length} cores (${cpus()[0]?.model ?? '?'}), node ${process.version}, load average ${loadAverage()}`);
const verdicts: Verdict[] = [];
const results: Record<string, unknown> = { date: new Date().toISOString(), cores: cpus().length };
const children: ChildProcess[] = [];
const stop = () => children.forEach((c) => c.connected && c.disconnect());
process.on('SIGINT', () => {
  children.forEach((c) => c.kill('SIGTERM'));
  process.exit(130);
});

try {
  // The test CA and the web servers' certificates (SANs: each domain and its www).
  const ca = await createTestCa({ commonName: 'Sendwell Bench CA' });
  const names = benchDomains(DOMAINS).map((d) => d.name);
  const groups = [];
  for (let i = 0; i < names.length; i += DOMAINS_PER_CERT) {
    const slice = names.slice(i, i + DOMAINS_PER_CERT);
    const hostnames = slice.flatMap((name) => [name, `www.${name}`]);
    const cert = await issueCert(ca, { hostnames });
    groups.push({ cert: cert.cert, key: cert.key, names: hostnames });
  }
  const caFile = join(mkdtempSync(join(tmpdir(), 'bench-scanner-')), 'ca.pem');
  writeFileSync(caFile, ca.cert);

  const dns = child('dns-fixture.process.ts', { BENCH_DOMAINS: String(DOMAINS) });
  children.push(dns);
  const tls = child('tls-fixture.process.ts', {});
  children.push(tls);
  const tlsReady = message<{ port: number }>(tls, 'ready');
  tls.send({ groups });
  const [{ port: dnsPort, names: fixtureNames }, { port: tlsPort }] = await Promise.all([
    message<{ port: number; names: number }>(dns, 'ready'),
    tlsReady,
  ]);
  console.log(`fixtures: DNS 127.0.0.1:${dnsPort} (pid ${dns.pid}, ${fixtureNames} names, 4 MB receive buffer), TLS 127.0.0.1:${tlsPort} (pid ${tls.pid}, ${groups.length} certificates)`);

  const profileDir = join(BENCH, 'results', 'profiles');
  const profiling = process.env.BENCH_CPU_PROF === '1';
  if (profiling) mkdirSync(profileDir, { recursive: true });
  const worker = child(
    'scan-worker.process.ts',
    { BENCH_DNS_PORT: String(dnsPort), BENCH_DNS_PID: String(dns.pid), BENCH_TLS_PORT: String(tlsPort), BENCH_TLS_PID: String(tls.pid), BENCH_CA_FILE: caFile, BENCH_DOMAINS: String(DOMAINS) },
    ['--expose-gc', ...(profiling ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [])],
  );
  children.push(worker);
  const { result } = await message<{ result: Record<string, unknown> & { verdicts: Verdict[] } }>(worker, 'result');
  verdicts.push(...result.verdicts);
  Object.assign(results, result);
  await new Promise((resolve) => (worker.exitCode === null ? worker.once('exit', resolve) : resolve(undefined)));
  stop();

  if (SWEEP_DOMAINS > 0) {
    const sweep = await sweepBench({ domains: SWEEP_DOMAINS, users: 4_000, batch: SWEEP_BATCH });
    verdicts.push(sweep.verdict);
    results.sweep = sweep.figures;
  }

  console.log('\nsummary:');
  for (const v of verdicts) console.log(`  ${v.pass ? 'PASS' : 'MISS'}  ${v.name}: ${v.value.toFixed(2)}${v.unit} (target ${v.comparison} ${v.target}${v.unit})`);
  console.log(`  load average at the end: ${loadAverage()}`);
  const failed = verdicts.filter((v) => v.required && !v.pass);
  if (failed.length > 0) {
    console.log(`  FAILED: ${failed.map((v) => v.name).join('; ')}`);
    process.exitCode = 1;
  }
  results.verdicts = verdicts;
  mkdirSync(join(BENCH, 'results'), { recursive: true });
  writeFileSync(join(BENCH, 'results', 'scanner.json'), `${JSON.stringify(results, null, 2)}\n`);
} finally {
  stop();
}
