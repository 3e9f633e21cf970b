/**
 * Gateway overhead: the same route, the same connections, once straight to a service and once
 * through the real gateway (`services/gateway/src/main.ts`). The service and the gateway run as
 * child processes; autocannon runs alone in this process, so the load generator never shares an
 * event loop with a server.
 *
 *   BENCH_DURATION=10 BENCH_CONNECTIONS=50 pnpm --filter @sendwell/bench bench
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { cpus } from 'node:os';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { freePort, waitForHealth } from '../lib/processes.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 3);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
/** The fixed request rate of the latency phase (a rate both paths sustain on this machine). */
const RATE = Number(process.env.BENCH_RATE ?? 1000);
const ROUTE = '/api/user/profile';
const TARGET_RATIO = 0.8;
const TARGET_ADDED_P99_MS = 2;

function start(name: string, cwd: string, script: string, env: Record<string, string>): ChildProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', script], {
    cwd,
    env: { ...process.env, NODE_ENV: 'production', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  child.on('exit', (code, signal) => {
    if (code !== 0 && signal !== 'SIGTERM') console.error(`${name} exited (${code ?? signal})`);
  });
  return child;
}

interface Figures {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
}

async function load(url: string, duration: number, overallRate?: number): Promise<Figures> {
  const result = await autocannon({ url, connections: CONNECTIONS, duration, pipelining: 1, ...(overallRate ? { overallRate } : {}) });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  };
}

const upstreamPort = await freePort();
const gatewayPort = await freePort();
const bareProxyPort = await freePort();
const children = [
  start('upstream', `${ROOT}bench`, 'gateway/upstream.ts', { PORT: String(upstreamPort) }),
  start('gateway', `${ROOT}services/gateway`, 'src/main.ts', {
    PORT: String(gatewayPort),
    HOST: '127.0.0.1',
    AUTH_URL: `http://127.0.0.1:${upstreamPort}`,
    // A production-like secret, so the gateway's env check passes with NODE_ENV=production.
    JWT_SECRET: 'bench-secret-bench-secret-bench-secret-0123',
  }),
  start('bare proxy', `${ROOT}bench`, 'gateway/bare-proxy.ts', { PORT: String(bareProxyPort), UPSTREAM_URL: `http://127.0.0.1:${upstreamPort}` }),
];
const stop = () => children.forEach((c) => c.kill('SIGTERM'));
process.on('SIGINT', () => {
  stop();
  process.exit(130);
});

try {
  await waitForHealth(`http://127.0.0.1:${upstreamPort}/health`);
  await waitForHealth(`http://127.0.0.1:${gatewayPort}/health`);
  await waitForHealth(`http://127.0.0.1:${bareProxyPort}/health`);
  const direct = `http://127.0.0.1:${upstreamPort}${ROUTE}`;
  const viaGateway = `http://127.0.0.1:${gatewayPort}${ROUTE}`;
  const viaBareProxy = `http://127.0.0.1:${bareProxyPort}${ROUTE}`;
  const check = await fetch(viaGateway);
  if (check.status !== 200) throw new Error(`gateway answered ${check.status} on ${ROUTE}`);

  console.log(`gateway bench: ${DURATION} s per run, ${CONNECTIONS} connections, GET ${ROUTE}, ${cpus().length} cores`);
  // Warm both paths first so the JIT and the gateway's keep-alive pool are in their steady state.
  await load(direct, WARMUP);
  await load(viaGateway, WARMUP);
  await load(viaBareProxy, WARMUP);
  // Phase 1, saturation: as many requests as each path answers.
  const d = await load(direct, DURATION);
  const g = await load(viaGateway, DURATION);
  const b = await load(viaBareProxy, DURATION);
  // Phase 2, the same fixed rate on both paths: the latency the gateway adds when neither is saturated.
  const dr = await load(direct, DURATION, RATE);
  const gr = await load(viaGateway, DURATION, RATE);

  const ratio = g.rps / d.rps;
  const addedP99 = g.p99 - d.p99;
  const row = (name: string, f: Figures) =>
    `${name.padEnd(11)} ${f.rps.toFixed(0).padStart(8)} req/s   p50 ${f.p50.toFixed(2).padStart(6)} ms   p99 ${f.p99.toFixed(2).padStart(6)} ms   errors ${f.errors}   non-2xx ${f.non2xx}`;
  const addedP99AtRate = gr.p99 - dr.p99;
  console.log('saturation:');
  console.log(row('direct', d));
  console.log(row('gateway', g));
  console.log(row('bare proxy', b));
  console.log(`throughput bare proxy/direct: ${((b.rps / d.rps) * 100).toFixed(1)}%   gateway/bare proxy: ${((g.rps / b.rps) * 100).toFixed(1)}%`);
  console.log(`throughput gateway/direct: ${(ratio * 100).toFixed(1)}%   (target >= ${TARGET_RATIO * 100}%)  ${ratio >= TARGET_RATIO ? 'met' : 'NOT met'}`);
  console.log(`added p99 latency at saturation: ${addedP99.toFixed(2)} ms   (target < ${TARGET_ADDED_P99_MS} ms)  ${addedP99 < TARGET_ADDED_P99_MS ? 'met' : 'NOT met'}`);
  console.log(`fixed rate ${RATE} req/s:`);
  console.log(row('direct', dr));
  console.log(row('gateway', gr));
  console.log(`added p99 latency at ${RATE} req/s: ${addedP99AtRate.toFixed(2)} ms   (target < ${TARGET_ADDED_P99_MS} ms)  ${addedP99AtRate < TARGET_ADDED_P99_MS ? 'met' : 'NOT met'}`);

  await mkdir(`${ROOT}bench/results`, { recursive: true });
  await writeFile(
    `${ROOT}bench/results/gateway.json`,
    `${JSON.stringify({ date: new Date().toISOString(), durationS: DURATION, connections: CONNECTIONS, cores: cpus().length, direct: d, gateway: g, bareProxy: b, ratio, addedP99Ms: addedP99, rate: RATE, directAtRate: dr, gatewayAtRate: gr, addedP99AtRateMs: addedP99AtRate }, null, 2)}\n`,
  );
} finally {
  stop();
}
