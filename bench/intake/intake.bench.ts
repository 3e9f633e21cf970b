/**
 * Intake (DMARC aggregate reports in). Three figures, one run, on a fresh database with a user on
 * a paid plan and a few hundred domains:
 *   1. records parsed and stored per CPU-second: gzip'd reports of 50–2,000 records (log-uniform,
 *      as a day's reports are: many small, a few large) through ingestReportFile, two at a time, in a
 *      process of their own; the ingesting process's CPU (all its threads) and the Postgres backends'
 *      CPU apart. The floor, in the same process: parseAggregateReport alone on the same files,
 *      decompressed beforehand; the ratio is what decompression, checks and storage add to the parse.
 *   2. SMTP messages accepted per second: the intake service (src/main.ts, worker off: RCPT lookup,
 *      the message stored gzip'd, its reading queued) taking ~5 KB report messages over 8 connections
 *      from a raw-socket client in another process; the server's CPU per message. The peer, side by
 *      side on the same machine: a bare smtp-server that accepts anything and discards it.
 *   3. memory over a ~100 MB burst (message bytes as received): the intake with its worker on, fed the
 *      burst by SMTP and reading and storing it as it arrives, until every message is read; RSS and
 *      heap sampled every second; fails when the heap after the burst (after a GC) is more than 50 MB
 *      above the heap before it.
 *
 *   pnpm --filter @sendwell/bench bench intake
 *   BENCH_INTAKE_SCALE=0.2 pnpm --filter @sendwell/bench bench intake   (fewer reports, messages, MB)
 *   BENCH_INTAKE_BURST_MB=20 pnpm …                                     (figure 3's burst size only)
 *   BENCH_SMOKE=1 (lib/smoke.ts)   8 reports, 20 messages, a 0.2 MB burst; no limit judged
 *
 * Time: the burst dominates. Reading costs about 100 µs of intake CPU and 40 µs of Postgres CPU per
 * record, and 100 MB of mailed gzip'd reports (30:1) hold about 4 million records: some 10 minutes of
 * CPU, about 5 minutes on an idle 2-core machine, longer on a shared one (the load average is printed).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync, openSync, writeSync, closeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { connect } from 'node:net';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { randomBytes } from 'node:crypto';
import { createDb, sql, type Database } from '@sendwell/db';
import { createTestDatabase } from '@sendwell/db/testing';
import { closeRedis, createRedis } from '@sendwell/server-kit';
import { freePort, loadAverage, processCpuMs, stopChild, waitForHealth } from '../lib/processes.js';
import { SMOKE, smokeResult } from '../lib/smoke.js';
import { ReportGenerator, reportMail, type GeneratedReport } from './generate.js';
import type { IngestManifest } from './ingest.process.js';
import { PostgresCpu } from './postgres-cpu.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const HERE = fileURLToPath(new URL('.', import.meta.url));
const SERVER_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const SCALE = SMOKE ? 0 : Number(process.env.BENCH_INTAKE_SCALE ?? 1);
/** `n` at the scale, at least `min`; in smoke mode `smoke`. */
const scaled = (n: number, min: number, smoke: number) => (SMOKE ? smoke : Math.max(min, Math.round(n * SCALE)));
const DOMAINS = scaled(300, 20, 5);
/** At least 4: ingest.process.ts alternates over four slices of them. */
const REPORTS = scaled(200, 20, 8);
const SMTP_MESSAGES = scaled(2_000, 200, 20);
/** Warm-up messages before figure 2 and figure 3 (none in smoke mode: nothing there is worth warming for). */
const SMTP_WARM_MESSAGES = SMOKE ? 0 : 200;
const SMTP_CONNECTIONS = SMOKE ? 2 : 8;
const SMTP_ROUNDS = SMOKE ? 1 : 2;
const BURST_WARM_MESSAGES = SMOKE ? 0 : 20;
const BURST_BYTES = (SMOKE ? 0.2 : Number(process.env.BENCH_INTAKE_BURST_MB ?? scaled(100, 5, 0))) * 1024 * 1024;
const HEAP_GROWTH_LIMIT_MB = 50;
const INTAKE_DOMAIN = 'reports.bench.test';

const MB = 1024 * 1024;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const f0 = (n: number) => Math.round(n).toLocaleString('en-US');
const f1 = (n: number) => n.toFixed(1);
const f2 = (n: number) => n.toFixed(2);

interface Domain {
  id: number;
  name: string;
  reportToken: string;
}

function table(rows: string[][]): void {
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
  for (const row of rows) console.log(`  ${row.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join('  ')}`);
}

/** Runs a bench child to its end; its one JSON line of stdout parsed; its CPU (from /proc, sampled until it exits). */
async function runChild<T>(args: string[], env: Record<string, string> = {}): Promise<{ result: T; cpuMs: number }> {
  const child = spawn(process.execPath, args, { cwd: HERE, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  let cpuMs = 0;
  const sampler = setInterval(() => (cpuMs = Math.max(cpuMs, processCpuMs(child.pid!))), 100);
  let out = '';
  child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  const [code] = (await once(child, 'exit')) as [number | null];
  clearInterval(sampler);
  if (code !== 0) throw new Error(`${args.join(' ')} exited with ${code}`);
  return { result: JSON.parse(out.trim().split('\n').pop()!) as T, cpuMs };
}

/** Messages as one file of bytes and an index (recipient, offset, length) for smtp-load.process.ts. */
function writeMessages(dir: string, name: string, messages: Array<{ rcpt: string; bytes: Buffer }>): { bin: string; index: string; bytes: number } {
  const bin = join(dir, `${name}.bin`);
  const index = join(dir, `${name}.json`);
  const fd = openSync(bin, 'w');
  let offset = 0;
  const entries = messages.map((m) => {
    if (!m.bytes.subarray(-2).equals(Buffer.from('\r\n')) || m.bytes.includes('\r\n.')) throw new Error('a message must end with CRLF and have no line starting with a dot');
    writeSync(fd, m.bytes);
    const entry = { rcpt: m.rcpt, offset, length: m.bytes.length };
    offset += m.bytes.length;
    return entry;
  });
  closeSync(fd);
  writeFileSync(index, JSON.stringify(entries));
  return { bin, index, bytes: offset };
}

interface LoadResult {
  messages: number;
  accepted: number;
  codes: Record<string, number>;
  wallMs: number;
  clientCpuMs: number;
}

function smtpLoad(port: number, connections: number, set: { bin: string; index: string }): Promise<{ result: LoadResult; cpuMs: number }> {
  return runChild<LoadResult>(['--import', 'tsx', 'smtp-load.process.ts', String(port), String(connections), set.bin, set.index]);
}

// ---------------------------------------------------------------------------------------------
// 1. Records parsed and stored per CPU-second

interface IngestResult {
  reports: number;
  records: number;
  gzBytes: number;
  xmlBytes: number;
  ingest: { cpuMs: number; wallMs: number };
  floor: { cpuMs: number; wallMs: number };
  rounds: Array<{ records: number; floor: { cpuMs: number; wallMs: number }; ingest: { cpuMs: number; wallMs: number } }>;
}

async function ingestFigure(db: Database, database: { name: string; url: string }, domains: Domain[], dir: string) {
  const gen = new ReportGenerator(1);
  const manifest: IngestManifest = { warm: [], files: [], concurrency: 2 };
  for (let i = 0; i < 4; i++) {
    const report = gen.report({ domain: domains[i]!.name, domainIndex: i, records: 300, reportId: `ingest-warm-${i}`, daysAgo: 1 + (i % 20) });
    const path = join(dir, `ingest-warm-${i}.xml.gz`);
    writeFileSync(path, report.gz);
    manifest.warm.push({ path, domainId: domains[i]!.id, records: report.records });
  }
  for (let i = 0; i < REPORTS; i++) {
    const d = (i * 7919) % domains.length;
    const report = gen.report({ domain: domains[d]!.name, domainIndex: d, records: gen.recordCount(50, 2_000), reportId: `ingest-${i}`, daysAgo: 1 + (i % 20) });
    const path = join(dir, `ingest-${i}.xml.gz`);
    writeFileSync(path, report.gz);
    manifest.files.push({ path, domainId: domains[d]!.id, records: report.records });
  }
  const manifestPath = join(dir, 'ingest.json');
  writeFileSync(manifestPath, JSON.stringify(manifest));

  const pg = new PostgresCpu(db, database.name);
  await pg.start();
  const { result } = await runChild<IngestResult>(['--expose-gc', '--import', 'tsx', 'ingest.process.ts', manifestPath], { DATABASE_URL: database.url });
  const pgCpuMs = await pg.stop();
  const floorCpuMs = result.floor.cpuMs;
  const floorWallMs = result.floor.wallMs;
  const sliceRatios = result.rounds.map((r) => r.ingest.cpuMs / r.floor.cpuMs);
  const perCpuS = (ms: number) => (result.records * 1000) / ms;

  console.log(
    `\n1. records parsed and stored: ${result.reports} gzip'd reports of 50–2,000 records (${f0(result.records)} records, ${f1(result.gzBytes / MB)} MB gzip, ${f1(result.xmlBytes / MB)} MB XML) for ${domains.length} domains, two at a time`,
  );
  table([
    ['', 'records/CPU-s', 'CPU µs/record', 'wall s', 'records/s (wall)'],
    ['ingestReportFile (ingesting process)', f0(perCpuS(result.ingest.cpuMs)), f1((result.ingest.cpuMs * 1000) / result.records), f2(result.ingest.wallMs / 1000), f0((result.records * 1000) / result.ingest.wallMs)],
    ['  + Postgres backends', f0(perCpuS(result.ingest.cpuMs + pgCpuMs)), f1(((result.ingest.cpuMs + pgCpuMs) * 1000) / result.records), '', ''],
    ['  Postgres backends alone', '', f1((pgCpuMs * 1000) / result.records), '', ''],
    ['floor: parseAggregateReport on the XML', f0(perCpuS(floorCpuMs)), f1((floorCpuMs * 1000) / result.records), f2(floorWallMs / 1000), f0((result.records * 1000) / floorWallMs)],
  ]);
  console.log(
    `  ratio: ingest / parse floor = ${f2(result.ingest.cpuMs / floorCpuMs)}× the CPU of the ingesting process (${f2((result.ingest.cpuMs + pgCpuMs) / floorCpuMs)}× with Postgres); per slice (floor and ingest alternating over 4 slices) ${sliceRatios.map(f2).join(', ')}; load average ${loadAverage()}`,
  );
  return { ...result, pgCpuMs };
}

// ---------------------------------------------------------------------------------------------
// 2 and 3. The intake service

interface Intake {
  child: ChildProcess;
  smtpPort: number;
  prefix: string;
  samples: Array<{ t: number; rss: number; heapUsed: number }>;
  gc(): Promise<{ rss: number; heapUsed: number }>;
}

async function startIntake(databaseUrl: string, worker: boolean): Promise<Intake> {
  const port = await freePort();
  const smtpPort = await freePort();
  const prefix = `bench-intake-${randomBytes(4).toString('hex')}`;
  const child = spawn(process.execPath, ['--expose-gc', '--import', 'tsx', '--import', new URL('./memory-probe.ts', import.meta.url).href, 'src/main.ts'], {
    cwd: `${ROOT}services/intake`,
    env: {
      ...process.env,
      NODE_ENV: 'test',
      DATABASE_URL: databaseUrl,
      REDIS_URL,
      QUEUE_PREFIX: prefix,
      PORT: String(port),
      INTAKE_SMTP_PORT: String(smtpPort),
      INTAKE_DOMAIN,
      INTAKE_WORKER: String(worker),
      // One client address sends everything here: the per-client limits would refuse it.
      INTAKE_MAX_CONNECTIONS_PER_CLIENT: '100',
      INTAKE_MESSAGES_PER_CLIENT_PER_MINUTE: '1000000',
      // The worker's source naming asks DNS every minute: a resolver that refuses at once, not the internet.
      DNS_SERVERS: '127.0.0.1:9',
      DNS_TIMEOUT_MS: '200',
    },
    // Logs at the production level (info: a line per message), written where nobody reads them.
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const samples: Intake['samples'] = [];
  const gcWaiters: Array<(m: { rss: number; heapUsed: number }) => void> = [];
  child.on('message', (m: { type: string; t: number; rss: number; heapUsed: number }) => {
    if (m.type === 'sample') samples.push({ t: m.t, rss: m.rss, heapUsed: m.heapUsed });
    else if (m.type === 'gc') gcWaiters.shift()?.(m);
  });
  await waitForHealth(`http://127.0.0.1:${port}/health`, { child });
  // /health answers before the SMTP listener is up: wait for its greeting port.
  for (let i = 0; ; i++) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(smtpPort, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) break;
    if (i > 100) throw new Error('intake SMTP port never opened');
    await sleep(100);
  }
  return {
    child,
    smtpPort,
    prefix,
    samples,
    gc: () =>
      new Promise((resolve) => {
        gcWaiters.push(resolve);
        child.send({ type: 'gc' });
      }),
  };
}

async function startBare(): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bare-smtp.process.ts'], { cwd: HERE, stdio: ['ignore', 'pipe', 'inherit'] });
  const [line] = (await once(createInterface({ input: child.stdout! }), 'line')) as [string];
  return { child, port: (JSON.parse(line) as { port: number }).port };
}

async function deleteRedisKeys(prefix: string): Promise<number> {
  const redis = createRedis(REDIS_URL, 'client');
  let deleted = 0;
  try {
    let cursor = '0';
    do {
      const [nextCursor, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
      cursor = nextCursor;
      if (keys.length) deleted += await redis.del(...keys);
    } while (cursor !== '0');
  } finally {
    await closeRedis(redis);
  }
  return deleted;
}

const addressOf = (d: Domain) => `${d.reportToken}@${INTAKE_DOMAIN}`;

async function smtpFigure(db: Database, database: { name: string; url: string }, domains: Domain[], dir: string, prefixes: string[]) {
  // ~5 KB messages: a report of 150 records, gzip'd and mailed; 100 distinct ones for many recipients.
  const gen = new ReportGenerator(2);
  const pool: Array<{ report: GeneratedReport; mail: Buffer[] }> = [];
  for (let i = 0; i < 100; i++) {
    const d = i % domains.length;
    const report = gen.report({ domain: domains[d]!.name, domainIndex: d, records: 150, reportId: `smtp-${i}`, daysAgo: 1 + (i % 10) });
    pool.push({ report, mail: [reportMail(report, domains[d]!.name)] });
  }
  const messages = (n: number, salt: number) =>
    Array.from({ length: n }, (_, i) => {
      const p = pool[(i + salt) % pool.length]!;
      return { rcpt: addressOf(domains[p.report.domain]!), bytes: p.mail[0]! };
    });
  const warm = SMTP_WARM_MESSAGES > 0 ? writeMessages(dir, 'smtp-warm', messages(SMTP_WARM_MESSAGES, 7)) : null;
  const measured = writeMessages(dir, 'smtp', messages(SMTP_MESSAGES, 0));

  const bare = await startBare();
  const intake = await startIntake(database.url, false);
  prefixes.push(intake.prefix);
  const rounds: Array<{
    bare: { wallMs: number; cpuMs: number; accepted: number; clientCpuMs: number };
    intake: { wallMs: number; cpuMs: number; accepted: number; clientCpuMs: number; pgCpuMs: number; codes: Record<string, number> };
  }> = [];
  try {
    if (warm) {
      await smtpLoad(bare.port, SMTP_CONNECTIONS, warm);
      await smtpLoad(intake.smtpPort, SMTP_CONNECTIONS, warm);
    }
    for (let round = 0; round < SMTP_ROUNDS; round++) {
      const b0 = processCpuMs(bare.child.pid!);
      const b = await smtpLoad(bare.port, SMTP_CONNECTIONS, measured);
      const bareCpu = processCpuMs(bare.child.pid!) - b0;
      const pg = new PostgresCpu(db, database.name);
      await pg.start();
      const i0 = processCpuMs(intake.child.pid!);
      const i = await smtpLoad(intake.smtpPort, SMTP_CONNECTIONS, measured);
      const intakeCpu = processCpuMs(intake.child.pid!) - i0;
      const pgCpuMs = await pg.stop();
      rounds.push({
        bare: { wallMs: b.result.wallMs, cpuMs: bareCpu, accepted: b.result.accepted, clientCpuMs: b.result.clientCpuMs },
        intake: { wallMs: i.result.wallMs, cpuMs: intakeCpu, accepted: i.result.accepted, clientCpuMs: i.result.clientCpuMs, pgCpuMs, codes: i.result.codes },
      });
    }
  } finally {
    await stopChild(bare.child);
    await stopChild(intake.child);
  }
  const stored = Number((await sql<{ n: string }>`select count(*) as n from intake_messages where channel = 'smtp'`.execute(db)).rows[0]!.n);
  const expected = SMTP_WARM_MESSAGES + SMTP_MESSAGES * SMTP_ROUNDS;
  for (const round of rounds) {
    if (round.intake.accepted !== SMTP_MESSAGES || round.bare.accepted !== SMTP_MESSAGES) throw new Error(`not every message accepted: ${JSON.stringify(round)}`);
  }
  if (stored !== expected) throw new Error(`${stored} messages stored, expected ${expected}`);

  console.log(
    `\n2. SMTP acceptance: ${f0(SMTP_MESSAGES)} messages of ${f1(measured.bytes / SMTP_MESSAGES / 1024)} KB (a gzip'd 150-record report each) over ${SMTP_CONNECTIONS} connections, ${SMTP_ROUNDS} rounds after a warm-up, bare peer and intake alternating`,
  );
  const rows = [['', 'messages/s', 'server CPU ms/msg', 'Postgres CPU ms/msg', 'client CPU ms/msg', 'wall s']];
  rounds.forEach((round, n) => {
    rows.push([`round ${n + 1}: bare smtp-server (accept, discard)`, f0((SMTP_MESSAGES * 1000) / round.bare.wallMs), f2(round.bare.cpuMs / SMTP_MESSAGES), '', f2(round.bare.clientCpuMs / SMTP_MESSAGES), f2(round.bare.wallMs / 1000)]);
    rows.push([
      `round ${n + 1}: intake (lookup, store, queue)`,
      f0((SMTP_MESSAGES * 1000) / round.intake.wallMs),
      f2(round.intake.cpuMs / SMTP_MESSAGES),
      f2(round.intake.pgCpuMs / SMTP_MESSAGES),
      f2(round.intake.clientCpuMs / SMTP_MESSAGES),
      f2(round.intake.wallMs / 1000),
    ]);
  });
  table(rows);
  const sum = (k: 'bare' | 'intake', f: 'wallMs' | 'cpuMs') => rounds.reduce((s, round) => s + round[k][f], 0);
  const bareRate = (SMTP_MESSAGES * rounds.length * 1000) / sum('bare', 'wallMs');
  const intakeRate = (SMTP_MESSAGES * rounds.length * 1000) / sum('intake', 'wallMs');
  const bareCpu = sum('bare', 'cpuMs') / (SMTP_MESSAGES * rounds.length);
  const intakeCpu = sum('intake', 'cpuMs') / (SMTP_MESSAGES * rounds.length);
  console.log(
    `  all rounds: intake ${f0(intakeRate)} msg/s, bare ${f0(bareRate)} msg/s: intake / bare = ${f2(intakeRate / bareRate)} of the rate; server CPU ${f2(intakeCpu)} vs ${f2(bareCpu)} ms/msg = ${f2(intakeCpu / bareCpu)}× the CPU per message; ${stored} rows stored; load average ${loadAverage()}`,
  );
  return { intakeRate, bareRate, intakeCpu, bareCpu };
}

async function burstFigure(db: Database, database: { name: string; url: string }, domains: Domain[], dir: string, prefixes: string[]) {
  // Reports of 50–2,000 records to every domain in turn, mailed, until the messages reach BURST_BYTES.
  const gen = new ReportGenerator(3);
  const messages: Array<{ rcpt: string; bytes: Buffer }> = [];
  let bytes = 0;
  let records = 0;
  for (let i = 0; bytes < BURST_BYTES; i++) {
    const d = i % domains.length;
    const report = gen.report({ domain: domains[d]!.name, domainIndex: d, records: gen.recordCount(50, 2_000), reportId: `burst-${i}`, daysAgo: 1 + (i % 30) });
    const mail = reportMail(report, domains[d]!.name);
    messages.push({ rcpt: addressOf(domains[d]!), bytes: mail });
    bytes += mail.length;
    records += report.records;
  }
  const set = writeMessages(dir, 'burst', messages);
  messages.length = 0;

  const afterId = Number((await sql<{ id: string | null }>`select max(id) as id from intake_messages`.execute(db)).rows[0]?.id ?? 0);
  const intake = await startIntake(database.url, true);
  prefixes.push(intake.prefix);
  try {
    if (BURST_WARM_MESSAGES > 0) {
      // Warm: a few messages through both halves before the baseline.
      await smtpLoad(intake.smtpPort, 2, writeMessages(dir, 'burst-warm', Array.from({ length: BURST_WARM_MESSAGES }, (_, i) => {
        const d = i % domains.length;
        const report = gen.report({ domain: domains[d]!.name, domainIndex: d, records: 200, reportId: `burst-warm-${i}`, daysAgo: 2 });
        return { rcpt: addressOf(domains[d]!), bytes: reportMail(report, domains[d]!.name) };
      })));
      await waitRead(db, afterId, 120_000);
    }
    await sleep(1_000);
    const before = await intake.gc();
    const from = Date.now();
    const t0 = performance.now();
    const c0 = processCpuMs(intake.child.pid!);
    const pg = new PostgresCpu(db, database.name);
    await pg.start();
    const load = await smtpLoad(intake.smtpPort, SMTP_CONNECTIONS, set);
    const receivedMs = performance.now() - t0;
    if (load.result.accepted !== load.result.messages) throw new Error(`burst: ${JSON.stringify(load.result.codes)}`);
    await waitRead(db, afterId, 600_000);
    const doneMs = performance.now() - t0;
    const cpuMs = processCpuMs(intake.child.pid!) - c0;
    const pgCpuMs = await pg.stop();
    await sleep(1_500);
    const after = await intake.gc();
    const during = intake.samples.filter((s) => s.t >= from);
    const refused = (await sql<{ outcome: unknown }>`select outcome from intake_messages where state = 'refused' and id > ${afterId} limit 3`.execute(db)).rows;
    if (refused.length) throw new Error(`messages refused: ${JSON.stringify(refused)}`);

    const growthMb = (after.heapUsed - before.heapUsed) / MB;
    console.log(
      `\n3. memory over a burst: ${f0(load.result.messages)} report messages, ${f1(set.bytes / MB)} MB as received (${f0(records)} records), by SMTP over ${SMTP_CONNECTIONS} connections into the intake with its worker on (concurrency 2), read and stored as they arrive`,
    );
    console.log(
      `  received in ${f1(receivedMs / 1000)} s, all read in ${f1(doneMs / 1000)} s (${f0((records * 1000) / doneMs)} records/s); intake CPU ${f1(cpuMs / 1000)} s (${f0((records * 1000) / cpuMs)} records/CPU-s), Postgres backends ${f1(pgCpuMs / 1000)} s`,
    );
    const stat = (key: 'rss' | 'heapUsed') => [f0(during[0]![key] / MB), f0(Math.max(...during.map((s) => s[key])) / MB), f0(during.at(-1)![key] / MB)];
    table([
      [`intake process, ${during.length} samples (1/s), MB`, 'first', 'max', 'last', 'before (GC)', 'after (GC)'],
      ['RSS', ...stat('rss'), f0(before.rss / MB), f0(after.rss / MB)],
      ['heap used (main thread)', ...stat('heapUsed'), f0(before.heapUsed / MB), f0(after.heapUsed / MB)],
    ]);
    console.log('  (the reader threads\' heaps are not in "heap used"; they are in the RSS)');
    const ok = growthMb <= HEAP_GROWTH_LIMIT_MB;
    console.log(`  heap after the burst − before (both after a GC): ${growthMb >= 0 ? '+' : ''}${f1(growthMb)} MB (limit +${HEAP_GROWTH_LIMIT_MB} MB) ${ok ? 'PASS' : 'FAIL'}; load average ${loadAverage()}`);
    return { ok, growthMb, messages: load.result.messages, records, recordsPerSecond: (records * 1000) / doneMs };
  } finally {
    await stopChild(intake.child);
  }
}

/** Until no intake message after `afterId` is left queued (figure 2's stay queued: its intake had no worker). */
async function waitRead(db: Database, afterId: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const [{ queued }] = (await sql<{ queued: number }>`select count(*)::int as queued from intake_messages where state = 'queued' and id > ${afterId}`.execute(db)).rows as [{ queued: number }];
    if (queued === 0) return;
    if (Date.now() > deadline) throw new Error(`${queued} messages still unread after ${timeoutMs / 1000} s`);
    await sleep(250);
  }
}

async function main() {
  const started = performance.now();
  console.log(`scale ${SCALE} (BENCH_INTAKE_SCALE); ${DOMAINS} domains; load average ${loadAverage()}`);
  const database = await createTestDatabase(SERVER_URL);
  const db = createDb({ connectionString: database.url, max: 3 });
  const dir = mkdtempSync(join(tmpdir(), 'bench-intake-'));
  const prefixes: string[] = [];
  let ok = true;
  try {
    const [user] = (await sql<{ id: number }>`insert into users (username, email, password_hash, plan_type) values ('intake', 'intake@bench.test', 'x', 'advanced') returning id`.execute(db)).rows;
    const domains = (
      await sql<Domain>`insert into domains (user_id, name) select ${user!.id}, 'd' || i || '.bench.test' from generate_series(1, ${DOMAINS}) i returning id, name, report_token as "reportToken"`.execute(db)
    ).rows;
    await sql`analyze`.execute(db);

    const ingest = await ingestFigure(db, database, domains, dir);
    const smtp = await smtpFigure(db, database, domains, dir, prefixes);
    const burst = await burstFigure(db, database, domains, dir, prefixes);
    // The heap limit is a target: smoke mode prints it but does not judge it.
    ok = SMOKE || burst.ok;
    console.log(`\nintake bench: ${f1((performance.now() - started) / 1000)} s in all`);
    smokeResult('intake', {
      counts: {
        'records ingested': ingest.records,
        'ingest records per CPU-second': (ingest.records * 1000) / ingest.ingest.cpuMs,
        'parse floor records per CPU-second': (ingest.records * 1000) / ingest.floor.cpuMs,
        'intake SMTP messages per second': smtp.intakeRate,
        'bare SMTP messages per second': smtp.bareRate,
        'burst messages': burst.messages,
        'burst records': burst.records,
        'burst records per second': burst.recordsPerSecond,
      },
      values: { 'intake server CPU ms per message': smtp.intakeCpu },
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await db.destroy();
    await database.drop();
    let keys = 0;
    for (const prefix of prefixes) keys += await deleteRedisKeys(prefix);
    console.log(`cleaned up: database ${database.name} dropped, ${keys} Redis keys under ${prefixes.join(', ') || 'no prefix'} deleted`);
  }
  if (!ok) process.exit(1);
}

await main();
