/**
 * Domains reads through the gateway (issue 4, "Tests and figures"): `GET /api/domains` and
 * `GET /api/domains/{id}/checks` for an advanced-plan user with 10 domains and 1,000 completed scans
 * of history, at 200 connections (target p99 < 20 ms), and `GET /api/domain-checks/history` for
 * that user; then `EXPLAIN (ANALYZE, BUFFERS)` of the statements behind each call.
 *
 * A fresh database cloned from the migrated template and a unique BullMQ prefix on the shared Redis;
 * the real auth, domains and gateway services as child processes; autocannon alone in this process,
 * so the load generator never shares an event loop with a server. Other users' history fills the
 * tables too (BENCH_OTHER_USERS, BENCH_OTHER_HISTORY_USERS), so the plans choose between index and table as they would in
 * production rather than reading a table that holds one user.
 *
 *   pnpm --filter @sendwell/bench bench domains
 *   BENCH_DURATION=10 BENCH_CONNECTIONS=200 BENCH_RATE=200 BENCH_SCANS=1000 BENCH_OTHER_USERS=5000 BENCH_OTHER_HISTORY_USERS=100 BENCH_CPU_PROF=1
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { createDb, sql } from '@sendwell/db';
import { createTestDatabase, type TestDatabase } from '@sendwell/db/testing';
import { createRedis } from '@sendwell/server-kit';
import autocannon from 'autocannon';
import { freePort, loadAverage, stopChild, waitForHealth } from '../lib/processes.js';
import { fillHistory } from './history-fill.js';
import { printProfileSummaries, summariseProfiles } from './profile-summary.js';
import { queryPlans, type Plan } from './query-plans.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SERVER_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 3);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 200);
const DOMAINS = 10;
const SCANS = Number(process.env.BENCH_SCANS ?? 1_000);
/** Other users with a live session each, sharing the tables with the benchmarked one... */
const OTHER_USERS = Number(process.env.BENCH_OTHER_USERS ?? 5_000);
/** ...of whom this many have 5 domains and 100 completed scans each. */
const OTHER_HISTORY_USERS = Number(process.env.BENCH_OTHER_HISTORY_USERS ?? 100);
/**
 * The fixed total rate of the second phase: 200 connections that together send this many requests
 * a second, so latency shows the time to answer rather than the queue that a closed loop of 200
 * connections builds on 2 cores (at saturation, p99 ≈ connections / throughput by Little's law).
 */
const RATE = Number(process.env.BENCH_RATE ?? 200);
const TARGET_P99_MS = 20;
/** Closed-loop runs at fewer connections beside the target's 200 (BENCH_LOWER_CONNECTIONS=10,50). */
const LOWER_CONNECTIONS = (process.env.BENCH_LOWER_CONNECTIONS ?? '10,50').split(',').filter(Boolean).map(Number);
/** BENCH_CPU_PROF=1: each service writes CPU profiles (main thread and tsx's loader thread) to bench/results/profiles/domains-<service>/ when it stops. */
const PROFILE = process.env.BENCH_CPU_PROF === '1';
const JWT_SECRET = 'bench-secret-bench-secret-bench-secret-0123';

const children: ChildProcess[] = [];
function start(name: string, service: string, env: Record<string, string>, logLevel = 'warn'): ChildProcess {
  const profile = PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${ROOT}bench/results/profiles/domains-${service}`] : [];
  const child = spawn(process.execPath, [...profile, '--import', 'tsx', 'src/main.ts'], {
    cwd: `${ROOT}services/${service}`,
    env: { ...process.env, NODE_ENV: 'production', LOG_LEVEL: logLevel, JWT_SECRET, ...env },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  child.on('exit', (code, signal) => {
    if (code !== 0 && signal !== 'SIGTERM') console.error(`${name} exited (${code ?? signal})`);
  });
  children.push(child);
  return child;
}

/** User + system CPU seconds of a process so far (Linux /proc; clock ticks of 10 ms). */
function cpuSeconds(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

interface Figures {
  rps: number;
  p50: number;
  p99: number;
  max: number;
  errors: number;
  non2xx: number;
  kbPerResponse: number;
  /** CPU milliseconds per answer in each process: load-independent, unlike latency on a shared machine. */
  cpuMsPerRequest: Record<string, number>;
}

/** The processes whose CPU is counted: the three services and this database's Postgres backends. */
let cpuProcesses: () => Promise<Record<string, number[]>> = async () => ({});

async function loadTest(url: string, token: string, duration: number, overallRate?: number, connections = CONNECTIONS): Promise<Figures> {
  const procs = await cpuProcesses();
  const sum = (pids: number[]) => pids.reduce((t, pid) => t + cpuSeconds(pid), 0);
  const before = Object.fromEntries(Object.entries(procs).map(([name, pids]) => [name, sum(pids)]));
  const result = await autocannon({
    url,
    connections,
    duration,
    pipelining: 1,
    headers: { authorization: `Bearer ${token}` },
    ...(overallRate ? { overallRate } : {}),
  });
  const cpuMsPerRequest = Object.fromEntries(
    Object.entries(procs).map(([name, pids]) => [name, result.requests.total ? ((sum(pids) - before[name]!) * 1000) / result.requests.total : 0]),
  );
  return {
    cpuMsPerRequest,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    max: result.latency.max,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    kbPerResponse: result.requests.total ? result.throughput.total / result.requests.total / 1024 : 0,
  };
}

async function api<T>(base: string, method: string, path: string, token: string | null, body?: unknown): Promise<T> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${text.slice(0, 300)}`);
  return JSON.parse(text) as T;
}

console.log(`domains bench: ${cpus().length} cores (${cpus()[0]?.model ?? '?'}), node ${process.version}, ${DURATION} s per run, ${CONNECTIONS} connections; load average ${loadAverage()}`);
const prefix = `bench-domains-${randomBytes(4).toString('hex')}`;
const redis = createRedis(REDIS_URL, 'client');
let testDb: TestDatabase | undefined;
let db: ReturnType<typeof createDb> | undefined;
let exitCode = 0;
process.on('SIGINT', () => {
  children.forEach((c) => c.kill('SIGTERM'));
  process.exit(130);
});

try {
  // Profiles of this run only: the summary adds up every file in these folders.
  if (PROFILE) await Promise.all(['auth', 'domains', 'gateway'].map((s) => rm(`${ROOT}bench/results/profiles/domains-${s}`, { recursive: true, force: true })));
  testDb = await createTestDatabase(SERVER_URL);
  db = createDb({ connectionString: testDb.url, max: 2, applicationName: 'bench-domains' });
  console.log(`database ${testDb.name}, queue prefix ${prefix}`);

  const [authPort, domainsPort, gatewayPort] = [await freePort(), await freePort(), await freePort()];
  const common = { DATABASE_URL: testDb.url, REDIS_URL, QUEUE_PREFIX: prefix, HOST: '127.0.0.1' };
  const auth = start('auth', 'auth', { ...common, PORT: String(authPort) });
  const domains = start('domains', 'domains', { ...common, PORT: String(domainsPort), MAINTENANCE_WORKER: 'false' });
  const gateway = start(
    'gateway',
    'gateway',
    {
    ...common,
    PORT: String(gatewayPort),
    AUTH_URL: `http://127.0.0.1:${authPort}`,
    DOMAINS_URL: `http://127.0.0.1:${domainsPort}`,
    RATE_LIMIT_ENABLED: 'false',
    RATE_LIMIT_PREFIX: `${prefix}:rl`,
    },
    // autocannon closes its sockets with requests in flight at the end of each run, which the
    // gateway logs as a warning per aborted answer; errors still show.
    'error',
  );
  cpuProcesses = async () => {
    const backends = await sql<{ pid: number }>`select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid() and application_name <> 'bench-domains'`.execute(db!);
    return { gateway: [gateway.pid!], auth: [auth.pid!], domains: [domains.pid!], postgres: backends.rows.map((r) => r.pid) };
  };
  await Promise.all([authPort, domainsPort, gatewayPort].map((p) => waitForHealth(`http://127.0.0.1:${p}/health`)));
  const base = `http://127.0.0.1:${gatewayPort}`;

  // The user, through the real API; the plan is billing's business, so it is set in the database.
  const fillStart = performance.now();
  const email = `bench-${randomBytes(3).toString('hex')}@bench.example`;
  const registered = await api<{ token: string; user: { id: number } }>(base, 'POST', '/api/auth/register', null, {
    username: `bench${randomBytes(3).toString('hex')}`,
    email,
    confirmEmail: email,
    password: 'bench-password',
    confirmPassword: 'bench-password',
  });
  const token = registered.token;
  const userId = registered.user.id;
  await db.updateTable('users').set({ planType: 'advanced' }).where('id', '=', userId).execute();
  const domainIds: number[] = [];
  for (let i = 1; i <= DOMAINS; i++) {
    const added = await api<{ domain: { id: number } }>(base, 'POST', '/api/domains', token, { name: `brand-${i}.bench.example` });
    domainIds.push(added.domain.id);
  }
  // The first scans the adds queued never run (no scanner here): drop their jobs and rows, so the
  // user's history is the 1,000 completed scans below.
  await sql`delete from scans where domain_id = any(${domainIds}::int[]) and status = 'queued'`.execute(db);

  if (OTHER_USERS > 0) {
    await sql`
      insert into users (username, email, password_hash, plan_type)
      select 'other' || g || ${prefix}, 'other' || g || '@' || ${prefix} || '.example', 'x', (array['free', 'basic', 'standard', 'advanced'])[1 + g % 4]
      from generate_series(1, ${OTHER_USERS}) g
    `.execute(db);
    await sql`insert into sessions (user_id, expires) select id, now() + interval '7 days' from users where id <> ${userId}`.execute(db);
    const others = await sql<{ id: number }>`
      insert into domains (user_id, name, status)
      select u.id, 'site' || d || '-' || u.id || '.example', 'healthy'
      from (select id from users where id <> ${userId} order by id limit ${OTHER_HISTORY_USERS}) u cross join generate_series(1, 5) d
      returning id
    `.execute(db);
    await fillHistory(db, others.rows.map((r) => r.id), Math.min(OTHER_USERS, OTHER_HISTORY_USERS) * 100, 90);
  }
  // One scan per domain every 15 minutes (the advanced interval): 1,000 scans over about 25 hours.
  await fillHistory(db, domainIds, SCANS, (15 * 60) / DOMAINS);
  await sql`vacuum analyze`.execute(db);
  const counts = await sql<{ scans: number; checks: number; reputation: number; mine: number }>`
    select (select count(*)::int from scans) as scans, (select count(*)::int from domain_checks) as checks,
           (select count(*)::int from domain_reputation_history) as reputation,
           (select count(*)::int from scans where domain_id = any(${domainIds}::int[])) as mine
  `.execute(db);
  const c = counts.rows[0]!;
  console.log(
    `data: user ${userId} (advanced) with ${DOMAINS} domains and ${c.mine} completed scans; tables hold ${c.scans} scans, ${c.checks} checks, ${c.reputation} reputation rows (${OTHER_USERS} other users with sessions, ${Math.min(OTHER_USERS, OTHER_HISTORY_USERS)} of them with history); filled in ${((performance.now() - fillStart) / 1000).toFixed(1)} s`,
  );

  const domainId = domainIds[Math.floor(DOMAINS / 2)]!;
  const checks = await api<unknown[]>(base, 'GET', `/api/domains/${domainId}/checks`, token);
  const list = await api<unknown[]>(base, 'GET', '/api/domains', token);
  const history = await api<Array<{ scans: unknown[] }>>(base, 'GET', '/api/domain-checks/history', token);
  const historyScans = history.reduce((n, d) => n + d.scans.length, 0);
  if (list.length !== DOMAINS || checks.length !== 6 || historyScans !== SCANS) {
    throw new Error(`unexpected answers: ${list.length} domains, ${checks.length} checks, ${historyScans} history scans`);
  }

  const routes = [
    { name: 'GET /api/domains', path: '/api/domains', target: true },
    { name: 'GET /api/domains/{id}/checks', path: `/api/domains/${domainId}/checks`, target: true },
    { name: 'GET /api/domain-checks/history', path: '/api/domain-checks/history', target: false },
  ];
  const figures: Record<string, Figures & { loadAverage: string }> = {};
  const atRate: Record<string, Figures & { loadAverage: string }> = {};
  const atLower: Record<string, Record<number, Figures & { loadAverage: string }>> = {};
  for (const route of routes.filter((r) => r.target)) {
    await loadTest(`${base}${route.path}`, token, WARMUP);
    figures[route.name] = { ...(await loadTest(`${base}${route.path}`, token, DURATION)), loadAverage: loadAverage() };
    atRate[route.name] = { ...(await loadTest(`${base}${route.path}`, token, DURATION, RATE)), loadAverage: loadAverage() };
    // Closed loops of fewer connections: the latency of the work itself, with less of the queue.
    atLower[route.name] = {};
    for (const n of LOWER_CONNECTIONS) {
      atLower[route.name]![n] = { ...(await loadTest(`${base}${route.path}`, token, DURATION, undefined, n)), loadAverage: loadAverage() };
    }
  }
  // Reference points: the gateway's own health route (the hop alone) and the list straight from the domains service.
  const gatewayHealth = await loadTest(`${base}/health`, token, Math.min(DURATION, 5));
  const directList = await loadTest(`http://127.0.0.1:${domainsPort}/api/domains`, token, DURATION);
  // History last: its answers are large, and whatever autocannon leaves in flight drains here. The
  // warm-up is one connection, so it leaves no backlog of abandoned requests for the measured run.
  const historyPath = routes[2]!.path;
  await loadTest(`${base}${historyPath}`, token, WARMUP, undefined, 1);
  const historyAlone = { ...(await loadTest(`${base}${historyPath}`, token, Math.min(DURATION, 5), undefined, 1)), loadAverage: loadAverage() };
  figures[routes[2]!.name] = { ...(await loadTest(`${base}${historyPath}`, token, DURATION)), loadAverage: loadAverage() };
  await waitForHealth(`http://127.0.0.1:${domainsPort}/health`);

  const plans = await queryPlans(db, { userId, sessionId: JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()).sid as string, domainId });

  console.log(`\nthroughput and latency through the gateway (${CONNECTIONS} connections, ${DURATION} s each):`);
  const row = (name: string, f: Figures) =>
    `  ${name.padEnd(32)} ${f.rps.toFixed(0).padStart(6)} req/s   p50 ${f.p50.toFixed(1).padStart(6)} ms   p99 ${f.p99.toFixed(1).padStart(6)} ms   max ${f.max.toFixed(0).padStart(5)} ms   errors ${f.errors}   non-2xx ${f.non2xx}   ${f.kbPerResponse.toFixed(1)} KB/answer\n` +
    `  ${''.padEnd(32)} CPU ms per answer: ${Object.entries(f.cpuMsPerRequest).map(([k, v]) => `${k} ${v.toFixed(2)}`).join(', ')}`;
  for (const route of routes) {
    const f = figures[route.name]!;
    const verdict = route.target ? `   ${f.p99 < TARGET_P99_MS && f.errors === 0 && f.non2xx === 0 ? 'PASS' : 'MISS'} (target p99 < ${TARGET_P99_MS} ms)` : '';
    console.log(`${row(route.name, f)}${verdict}   [load ${f.loadAverage}]`);
  }
  console.log(`at a fixed ${RATE} req/s over the same ${CONNECTIONS} connections:`);
  for (const route of routes.filter((r) => r.target)) {
    const f = atRate[route.name]!;
    console.log(`${row(route.name, f)}   ${f.p99 < TARGET_P99_MS && f.errors === 0 && f.non2xx === 0 ? 'PASS' : 'MISS'} (target p99 < ${TARGET_P99_MS} ms)   [load ${f.loadAverage}]`);
  }
  for (const n of LOWER_CONNECTIONS) {
    console.log(`closed loop of ${n} connections:`);
    for (const route of routes.filter((r) => r.target)) {
      const f = atLower[route.name]![n]!;
      console.log(`${row(route.name, f)}   ${f.p99 < TARGET_P99_MS && f.errors === 0 && f.non2xx === 0 ? 'under' : 'over'} ${TARGET_P99_MS} ms at p99   [load ${f.loadAverage}]`);
    }
  }
  console.log(row('  the same, 1 connection', historyAlone));
  console.log('reference points:');
  console.log(row('gateway GET /health', gatewayHealth));
  console.log(row('GET /api/domains, no gateway', directList));

  console.log('\nquery plans (EXPLAIN ANALYZE BUFFERS):');
  for (const plan of plans) {
    console.log(`\n  ${plan.call}: ${plan.statement}  (${plan.executionMs} ms; indexes: ${plan.indexes.join(', ') || 'none'}; seq scans: ${plan.seqScans.join(', ') || 'none'})`);
    for (const line of plan.lines) console.log(`    ${line}`);
  }
  const seq = plans.filter((p) => p.seqScans.length > 0);
  console.log(`\nsequential scans left: ${seq.length === 0 ? 'none' : seq.map((p) => `${p.statement} (${p.seqScans.join(', ')})`).join('; ')}`);

  console.log('\nsummary:');
  for (const route of routes.filter((r) => r.target)) {
    for (const [phase, f] of [['saturated', figures[route.name]!], [`at ${RATE} req/s`, atRate[route.name]!]] as const) {
      const pass = f.p99 < TARGET_P99_MS && f.errors === 0 && f.non2xx === 0;
      console.log(`  ${pass ? 'PASS' : 'MISS'}  ${route.name} ${phase}, ${CONNECTIONS} connections: p99 ${f.p99.toFixed(1)} ms (target < ${TARGET_P99_MS} ms), ${f.rps.toFixed(0)} req/s`);
    }
  }
  for (const n of LOWER_CONNECTIONS) {
    for (const route of routes.filter((r) => r.target)) {
      const f = atLower[route.name]![n]!;
      console.log(`  ${f.p99 < TARGET_P99_MS && f.errors === 0 && f.non2xx === 0 ? 'under' : 'over '}  ${route.name} closed loop, ${n} connections: p99 ${f.p99.toFixed(1)} ms, ${f.rps.toFixed(0)} req/s`);
    }
  }
  // Little's law for a closed loop: connections = throughput × mean latency, and p99 sits above the
  // mean; so p99 < 20 ms at 200 connections needs more than 200 / 0.020 = 10,000 answers a second.
  const needed = CONNECTIONS / (TARGET_P99_MS / 1000);
  console.log(`  arithmetic: a closed loop of ${CONNECTIONS} connections answered under ${TARGET_P99_MS} ms needs > ${needed.toFixed(0)} req/s (Little's law), so < ${((cpus().length * 1000) / needed).toFixed(2)} CPU ms per request on ${cpus().length} cores, load generator included:`);
  for (const route of routes.filter((r) => r.target)) {
    const f = figures[route.name]!;
    const cpu = Object.values(f.cpuMsPerRequest).reduce((a, b) => a + b, 0);
    console.log(`    ${route.name}: ${cpu.toFixed(2)} CPU ms per request in the servers (${Object.entries(f.cpuMsPerRequest).map(([k, v]) => `${k} ${v.toFixed(2)}`).join(', ')}) → at most ${((cpus().length * 1000) / cpu).toFixed(0)} req/s on ${cpus().length} idle cores before autocannon's share; measured ${f.rps.toFixed(0)} req/s, so p99 ≈ ${((CONNECTIONS / Math.max(f.rps, 1)) * 1000).toFixed(0)} ms or more`);
  }
  console.log(`  load average at the end: ${loadAverage()} (other work on this machine takes CPU from every figure above)`);

  await mkdir(`${ROOT}bench/results`, { recursive: true });
  await writeFile(
    `${ROOT}bench/results/domains.json`,
    `${JSON.stringify(
      {
        date: new Date().toISOString(),
        cores: cpus().length,
        durationS: DURATION,
        connections: CONNECTIONS,
        data: { domains: DOMAINS, scans: c.mine, otherUsers: OTHER_USERS, tableScans: c.scans, tableChecks: c.checks },
        figures,
        rate: RATE,
        atRate,
        atLowerConnections: atLower,
        historyOneConnection: historyAlone,
        reference: { gatewayHealth, directList },
        plans: plans.map(({ lines: _lines, ...p }) => p),
        loadAverageEnd: loadAverage(),
      },
      null,
      2,
    )}\n`,
  );
} catch (error) {
  exitCode = 1;
  console.error(error);
} finally {
  await Promise.all(children.map(stopChild));
  if (PROFILE) {
    console.log('\nwhere the CPU went (--cpu-prof of each service over the whole run, self time):');
    printProfileSummaries(summariseProfiles(['gateway', 'domains'].map((s) => `${ROOT}bench/results/profiles/domains-${s}`)));
  }
  await db?.destroy();
  // BullMQ keys of this run only (SCAN, never FLUSHALL: Redis is shared).
  let removed = 0;
  for await (const keys of redis.scanStream({ match: `${prefix}*`, count: 500 })) {
    if ((keys as string[]).length) removed += await redis.del(...(keys as string[]));
  }
  await redis.quit();
  await testDb?.drop();
  console.log(`cleaned up: children stopped, ${removed} Redis keys removed, database ${testDb?.name ?? '(none)'} dropped`);
}
process.exit(exitCode);
