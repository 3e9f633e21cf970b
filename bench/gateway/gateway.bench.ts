/**
 * Gateway overhead (issue 12): the same route answered by a service directly, through a bare
 * `node:http` + undici pass-through (`bare-proxy.ts`, the floor of any Node proxy) and through the
 * compiled gateway (`services/gateway/dist/main.js`, as `pnpm start` runs it, built first here).
 * Each figure is the median of alternating rounds (the machine is shared), with the CPU each proxy
 * process spent per request, read from /proc, which the load of other processes barely moves.
 * autocannon runs alone in this process, so the load generator never shares an event loop with a server.
 *
 *   BENCH_DURATION=5 BENCH_ROUNDS=3 BENCH_CONNECTIONS=50 BENCH_RATE=1000 npx tsx run.ts gateway
 *   BENCH_CPU_PROF=1 …   writes the gateway's and the bare proxy's CPU profiles to bench/results/profiles/gateway
 *   BENCH_SMOKE=1        (lib/smoke.ts) the gateway from its sources, no build, one short round, no target judged
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { cpus } from 'node:os';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { COMPILED_NODE_FLAGS } from '../../scripts/lib/services.js';
import { freePort, loadAverage, processCpuMs, stopChild, waitForHealth } from '../lib/processes.js';
import { RESULTS_DIR, serviceArgs, sized, SMOKE, smokeResult } from '../lib/smoke.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const DURATION = sized('BENCH_DURATION', 5, 0.3);
const WARMUP = sized('BENCH_WARMUP', 5, 0.3);
const ROUNDS = sized('BENCH_ROUNDS', 3, 1);
const CONNECTIONS = sized('BENCH_CONNECTIONS', 50, 5);
/** The fixed request rate of the latency phase, one every path sustains on this machine. */
const RATE = sized('BENCH_RATE', 1000, 50);
/** The gateway's log level: production's default, so its request log is part of what is measured. */
const GATEWAY_LOG_LEVEL = process.env.BENCH_GATEWAY_LOG_LEVEL ?? 'info';
const PROFILE_DIR = !SMOKE && process.env.BENCH_CPU_PROF === '1' ? `${ROOT}bench/results/profiles/gateway` : null;
const ROUTE = '/api/user/profile';
const TARGET_RATIO = 0.9;
const TARGET_ADDED_P99_MS = 2;

type PathName = 'direct' | 'bare' | 'gateway';
const LABELS: Record<PathName, string> = { direct: 'direct', bare: 'bare pass-through', gateway: 'gateway' };

interface Run {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  /** CPU ms per answer of the proxy in the path (the service's own for `direct`), and of the service. */
  proxyCpuMs: number;
  serviceCpuMs: number;
  load: string;
}

const children: ChildProcess[] = [];
function start(name: string, cwd: string, args: string[], env: Record<string, string>, stdout: 'inherit' | 'ignore' = 'inherit'): ChildProcess {
  const profile = PROFILE_DIR && name !== 'upstream' ? ['--cpu-prof', `--cpu-prof-dir=${PROFILE_DIR}/${name}`] : [];
  const child = spawn(process.execPath, [...profile, ...args], {
    cwd,
    // Every process here talks over loopback, so loopback is the proxy each one trusts.
    env: { ...process.env, NODE_ENV: 'production', LOG_LEVEL: 'warn', TRUSTED_PROXIES: 'loopback', ...env },
    stdio: ['ignore', stdout, 'inherit'],
  });
  child.on('exit', (code, signal) => {
    if (code !== 0 && signal !== 'SIGTERM') console.error(`${name} exited (${code ?? signal})`);
  });
  children.push(child);
  return child;
}

function build(): void {
  // The gateway and the workspace packages it imports, each with its esbuild `build` script.
  const result = spawnSync('pnpm', ['--filter', '@sendwell/gateway...', '--silent', 'run', 'build'], { cwd: ROOT, stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`building the gateway failed (${result.status ?? result.signal})`);
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

// Smoke mode runs the gateway from its sources: nothing to build.
if (!SMOKE) build();
const upstreamPort = await freePort();
const gatewayPort = await freePort();
const barePort = await freePort();
const upstream = start('upstream', `${ROOT}bench`, ['--import', 'tsx', 'gateway/upstream.ts'], { PORT: String(upstreamPort) });
const gateway = start(
  'gateway',
  `${ROOT}services/gateway`,
  serviceArgs(COMPILED_NODE_FLAGS),
  {
    PORT: String(gatewayPort),
    LOG_LEVEL: GATEWAY_LOG_LEVEL,
    // Any free port for the internal listener: the fixed default may be a running `pnpm start`'s.
    INTERNAL_PORT: '0',
    HOST: '127.0.0.1',
    AUTH_URL: `http://127.0.0.1:${upstreamPort}`,
    // A secret of this run, so the gateway's env check passes with NODE_ENV=production.
    JWT_SECRET: randomBytes(32).toString('base64url'),
  },
  // Its request log goes where production's goes, out of the process, but not onto this terminal.
  GATEWAY_LOG_LEVEL === 'info' || GATEWAY_LOG_LEVEL === 'debug' ? 'ignore' : 'inherit',
);
const bare = start('bare', `${ROOT}bench`, ['--import', 'tsx', 'gateway/bare-proxy.ts'], { PORT: String(barePort), UPSTREAM_URL: `http://127.0.0.1:${upstreamPort}` });
const stopAll = () => Promise.all(children.map(stopChild));
process.on('SIGINT', () => void stopAll().then(() => process.exit(130)));

const urls: Record<PathName, string> = {
  direct: `http://127.0.0.1:${upstreamPort}${ROUTE}`,
  bare: `http://127.0.0.1:${barePort}${ROUTE}`,
  gateway: `http://127.0.0.1:${gatewayPort}${ROUTE}`,
};
const proxyOf: Record<PathName, ChildProcess> = { direct: upstream, bare, gateway };

async function load(path: PathName, duration: number, overallRate?: number): Promise<Run> {
  const pid = proxyOf[path].pid!;
  const before = { proxy: processCpuMs(pid), service: processCpuMs(upstream.pid!) };
  const result = await autocannon({ url: urls[path], connections: CONNECTIONS, duration, pipelining: 1, ...(overallRate ? { overallRate } : {}) });
  const answers = Math.max(1, result.requests.total);
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    proxyCpuMs: (processCpuMs(pid) - before.proxy) / answers,
    serviceCpuMs: (processCpuMs(upstream.pid!) - before.service) / answers,
    load: loadAverage(),
  };
}

/** ROUNDS rounds of every path, the two proxies' order swapped each round so neither always runs on a warmer machine. */
async function rounds(overallRate?: number): Promise<Record<PathName, Run[]>> {
  const runs: Record<PathName, Run[]> = { direct: [], bare: [], gateway: [] };
  for (let round = 0; round < ROUNDS; round++) {
    const order: PathName[] = round % 2 ? ['direct', 'gateway', 'bare'] : ['direct', 'bare', 'gateway'];
    for (const path of order) runs[path].push(await load(path, DURATION, overallRate));
  }
  return runs;
}

const fmt = (n: number, digits = 2) => n.toFixed(digits);
function table(title: string, runs: Record<PathName, Run[]>): void {
  console.log(`${title} (median of ${ROUNDS})`);
  console.log(`${''.padEnd(18)} ${'req/s'.padStart(8)} ${'p50 ms'.padStart(7)} ${'p99 ms'.padStart(7)}   CPU ms/req: proxy  service   errors non-2xx   load`);
  for (const path of ['direct', 'bare', 'gateway'] as const) {
    const r = runs[path];
    const m = (key: 'rps' | 'p50' | 'p99' | 'proxyCpuMs' | 'serviceCpuMs') => median(r.map((x) => x[key]));
    const proxyCpu = path === 'direct' ? '     -' : fmt(m('proxyCpuMs'), 3).padStart(6);
    console.log(
      `${LABELS[path].padEnd(18)} ${fmt(m('rps'), 0).padStart(8)} ${fmt(m('p50')).padStart(7)} ${fmt(m('p99')).padStart(7)}   ${''.padEnd(11)}${proxyCpu}  ${fmt(m('serviceCpuMs'), 3).padStart(7)}   ${String(r.reduce((s, x) => s + x.errors, 0)).padStart(6)} ${String(r.reduce((s, x) => s + x.non2xx, 0)).padStart(7)}   ${r.at(-1)!.load}`,
    );
  }
}

const verdict = (ok: boolean) => (ok ? 'PASS' : 'MISS');

try {
  await Promise.all([
    waitForHealth(`http://127.0.0.1:${upstreamPort}/health`, { child: upstream }),
    waitForHealth(`http://127.0.0.1:${gatewayPort}/health`, { child: gateway }),
    waitForHealth(`http://127.0.0.1:${barePort}/health`, { child: bare }),
  ]);
  const check = await fetch(urls.gateway);
  if (check.status !== 200) throw new Error(`gateway answered ${check.status} on ${ROUTE}`);

  console.log(
    `gateway bench: GET ${ROUTE}, ${ROUNDS} rounds of ${DURATION} s per path, ${CONNECTIONS} connections, ${cpus().length} cores; ` +
      `gateway ${SMOKE ? 'src/main.ts (smoke)' : 'dist/main.js'} with LOG_LEVEL=${GATEWAY_LOG_LEVEL}; load ${loadAverage()}`,
  );
  // Warm every path first, so the JIT and the keep-alive pools are in their steady state.
  for (const path of ['direct', 'bare', 'gateway'] as const) await load(path, WARMUP);

  const saturated = await rounds();
  table('saturation', saturated);
  const ratios = saturated.gateway.map((g, i) => g.rps / saturated.bare[i]!.rps);
  const ratio = median(ratios);
  console.log(`throughput gateway / bare: ${fmt(ratio)} (rounds ${ratios.map((r) => fmt(r)).join(' ')})   target >= ${TARGET_RATIO}   ${verdict(ratio >= TARGET_RATIO)}`);

  const atRate = await rounds(RATE);
  table(`fixed rate ${RATE} req/s`, atRate);
  const added = atRate.gateway.map((g, i) => g.p99 - atRate.direct[i]!.p99);
  const addedBare = atRate.bare.map((b, i) => b.p99 - atRate.direct[i]!.p99);
  const addedP99 = median(added);
  console.log(
    `added p99 at ${RATE} req/s, gateway - direct: ${fmt(addedP99)} ms (rounds ${added.map((a) => fmt(a)).join(' ')}; bare - direct ${fmt(median(addedBare))} ms)   ` +
      `target <= ${TARGET_ADDED_P99_MS} ms   ${verdict(addedP99 <= TARGET_ADDED_P99_MS)}`,
  );
  const cpu = (path: PathName) => median([...saturated[path], ...atRate[path]].map((r) => r.proxyCpuMs));
  console.log(`CPU ms per request (median of every run): gateway ${fmt(cpu('gateway'), 3)}, bare ${fmt(cpu('bare'), 3)}, service ${fmt(cpu('direct'), 3)}`);

  await mkdir(RESULTS_DIR, { recursive: true });
  await writeFile(
    `${RESULTS_DIR}gateway.json`,
    `${JSON.stringify(
      {
        date: new Date().toISOString(),
        durationS: DURATION,
        rounds: ROUNDS,
        connections: CONNECTIONS,
        cores: cpus().length,
        gatewayLogLevel: GATEWAY_LOG_LEVEL,
        saturated,
        ratio,
        rate: RATE,
        atRate,
        addedP99Ms: addedP99,
        cpuMsPerRequest: { gateway: cpu('gateway'), bare: cpu('bare'), service: cpu('direct') },
      },
      null,
      2,
    )}\n`,
  );
  const every = (['direct', 'bare', 'gateway'] as const).flatMap((path) => [...saturated[path], ...atRate[path]]);
  smokeResult('gateway', {
    counts: { 'gateway req/s': median(saturated.gateway.map((r) => r.rps)), 'bare req/s': median(saturated.bare.map((r) => r.rps)), 'direct req/s': median(saturated.direct.map((r) => r.rps)) },
    values: { 'gateway CPU ms per request': cpu('gateway'), 'throughput gateway / bare': ratio },
    conditions: { 'no errors or non-2xx answers': every.every((r) => r.errors === 0 && r.non2xx === 0) },
  });
} finally {
  await stopAll();
}
