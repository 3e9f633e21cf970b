/**
 * Reports (issue 15). Two figures, one run:
 *   - one full report of a domain with 1,000 scans of history (90 days, six checks each, a reputation
 *     point per scan, DNS change alerts): the document built from Postgres, then the PDF rendered;
 *     milliseconds each (median and p95 of 20 after a warm-up, target < 300 ms in all) and memory
 *     (the heap and RSS growth while rendering, target < 100 MB);
 *   - reports per second per worker: the compiled reports service, as production runs it, working
 *     through a burst of 200 reports for 200 such domains (100 scans each); the worker's CPU per report.
 * The peer, side by side: pdfkit writing a bare document of as many pages of plain text as the
 * report has, with no table, chart or outline; the ratio is what the report's layout costs beyond
 * pdfkit itself.
 *
 *   pnpm --filter @sendwell/bench bench reports
 *   BENCH_SMOKE=1   (lib/smoke.ts) 20 scans of history, 2 runs, a burst of 2 reports through the worker from its sources, no target judged
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { generateReportJobId, JobName } from '@sendwell/contracts';
import { createDb, sql, type Database } from '@sendwell/db';
import { createTestDatabase } from '@sendwell/db/testing';
import { deleteKeys, summariseScanDays } from '@sendwell/testing';
import { closeRedis, createLogger, createQueues, createRedis } from '@sendwell/server-kit';
import PDFDocument from 'pdfkit';
import { COMPILED_NODE_FLAGS } from '../../scripts/lib/services.js';
import { ReportBuilder } from '../../services/reports/src/generation/report-builder.js';
import { renderPdf } from '../../services/reports/src/render/pdf/render-pdf.js';
import { MailFlowSourceRepository } from '../../services/reports/src/repositories/mail-flow-source.repository.js';
import { ReportSourceRepository } from '../../services/reports/src/repositories/report-source.repository.js';
import { SenderRequirementsSourceRepository } from '../../services/reports/src/repositories/sender-requirements-source.repository.js';
import { freePort, loadAverage, processCpuMs, stopChild, waitForHealth } from '../lib/processes.js';
import { storeSeededChecks, storeSeededSnapshots } from '../lib/seeded-results.js';
import { serviceArgs, sized, SMOKE, smokeResult } from '../lib/smoke.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SERVER_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const HISTORY_SCANS = sized(null, 1_000, 20);
const BURST = sized('BENCH_REPORTS_BURST', 200, 2);
const BURST_SCANS = sized(null, 100, 10);
const RUNS = sized(null, 20, 2);
const WARM_UP_RUNS = sized(null, 3, 1);
const TARGET_MS = 300;
const TARGET_MB = 100;

const now = () => performance.now();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const MB = 1024 * 1024;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const p95 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil(xs.length * 0.95) - 1)]!;

/**
 * `scans` completed scans spread over the last 90 days for each domain, as the scanner records them:
 * results stored on change (lib/seeded-results.ts), so each domain's snapshot is stored once (each
 * scan's `takenAt` its patch) and each distinct check result once (spf, in error every fifth day of
 * the month, is two), every scan referencing the ones it saw, and the daily summary the trends read.
 */
async function seedHistory(db: Database, domainIds: number[], scans: number) {
  const stepMs = Math.floor((90 * 86_400_000) / scans);
  await db.transaction().execute(async (trx) => {
    await sql`create temp table bench_seed_scans on commit drop as
      with made as (
        insert into scans (id, domain_id, trigger, status, overall_status, created_at, started_at, completed_at)
        select gen_random_uuid(), d, 'scheduled', 'completed', case when i % 7 = 0 then 'warning' else 'healthy' end, t, t, t
        from unnest(${domainIds}::int[]) d, generate_series(1, ${scans}) i,
          lateral (select now() - make_interval(secs => (${scans} - i) * ${stepMs / 1000}::float8) as t) ts
        returning id, domain_id, completed_at
      )
      select * from made`.execute(trx);
    await sql`create temp table bench_seed_snapshots on commit drop as
      select id as scan_id, domain_id, completed_at as at,
        jsonb_build_object('takenAt', completed_at, 'a', '["192.0.2.10"]'::jsonb, 'aaaa', '[]'::jsonb,
          'mx', '[{"exchange":"mx1.bench.test","priority":10,"ips":["192.0.2.25"]}]'::jsonb,
          'ns', '["ns1.bench.test","ns2.bench.test"]'::jsonb, 'txt', '[]'::jsonb,
          'spfRecord', 'v=spf1 include:_spf.google.com include:sendgrid.net ~all', 'dmarcRecord', 'v=DMARC1; p=none', 'failed', '[]'::jsonb) as snapshot
      from bench_seed_scans`.execute(trx);
    await storeSeededSnapshots(trx, 'bench_seed_snapshots');
    await sql`create temp table bench_seed_checks on commit drop as
      select s.id as scan_id, s.domain_id, c.ord, c.type,
        case when c.type = 'dmarc' then 'warning' when c.type = 'spf' and extract(day from s.completed_at)::int % 5 = 0 then 'error' else 'valid' end as status,
        null::text as value, c.type || ' checked' as message, null::text as recommendation, c.details, s.completed_at as at
      from bench_seed_scans s cross join (values
        (1, 'spf', '{"record":"v=spf1 include:_spf.google.com include:sendgrid.net ~all","lookupCount":7,"findings":[{"code":"SPF_SOFTFAIL_ALL","severity":"info","message":"The record ends in ~all.","rfc":"RFC 7208 §5.1","recommendation":"End with -all."}]}'::jsonb),
        (2, 'dkim', '{"records":[{"selector":"google","record":"v=DKIM1; k=rsa; p=MIIBIjANBgkq"}]}'::jsonb),
        (3, 'dmarc', '{"record":"v=DMARC1; p=none","policy":"none","findings":[{"code":"DMARC_POLICY_NONE","severity":"warning","message":"p=none delivers failing mail.","rfc":"RFC 7489 §6.3","recommendation":"Move to quarantine."}]}'::jsonb),
        (4, 'blacklist', '{"sites":[{"name":"Spamhaus ZEN","status":"clean"},{"name":"Barracuda","status":"clean"},{"name":"SpamCop","status":"clean"},{"name":"SORBS","status":"unknown"}],"allIpResults":[{"ip":"192.0.2.25","clean":true}]}'::jsonb),
        (5, 'ssl_certificate', '{"issuer":"Bench CA","daysRemaining":60}'::jsonb),
        (6, 'dns_performance', '{"responseTimeMs":48}'::jsonb)) as c(ord, type, details)`.execute(trx);
    await storeSeededChecks(trx, 'bench_seed_checks');
  });
  await sql`insert into domain_reputation_history (domain_id, scan_id, score, trend, calculated_at, factors)
    select domain_id, id, 60 + (extract(day from completed_at)::int % 30), 'stable', completed_at,
      '{"weightedScores":{"emailAuthentication":33,"securityDeliverability":28,"configurationHealth":24},"emailAuthentication":{"spf":13,"dkim":13,"dmarc":7},"securityDeliverability":{"blacklist":{"score":10},"ssl":15,"spoofingProtection":5},"configurationHealth":{"dnsPerformance":12,"mailRouting":8,"nameServers":5}}'::jsonb
    from scans where domain_id = any(${domainIds}::int[])`.execute(db);
  await summariseScanDays(db, domainIds);
  await sql`insert into domain_alerts (domain_id, user_id, type, severity, title, message, details, created_at)
    select d.id, d.user_id, 'dns_change', 'high', 'DNS changed', 'DNS changed',
      jsonb_build_object('changes', jsonb_build_array(jsonb_build_object('record', 'SPF', 'impact', 'mail', 'summary', 'SPF gained include:sendgrid.net'))),
      now() - make_interval(days => g * 9)
    from domains d, generate_series(1, 9) g where d.id = any(${domainIds}::int[])`.execute(db);
}

/** pdfkit alone: `pages` pages of plain text, nothing else (the peer). */
function barePdf(pages: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({ size: 'A4', margin: 50 });
    const chunks: Buffer[] = [];
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    const paragraph = 'The quick brown fox jumps over the lazy dog. '.repeat(40);
    for (let p = 0; p < pages; p++) {
      if (p > 0) doc.addPage();
      doc.fontSize(10).text(paragraph).text(paragraph).text(paragraph);
    }
    doc.end();
  });
}

async function singleReport(db: Database) {
  const [user] = (await sql<{ id: number }>`insert into users (username, email, password_hash, plan_type) values ('one', 'one@bench.test', 'x', 'advanced') returning id`.execute(db)).rows;
  const [domain] = (await sql<{ id: number; name: string }>`insert into domains (user_id, name, status) values (${user!.id}, 'history.bench.test', 'warning') returning id, name`.execute(db)).rows;
  await seedHistory(db, [domain!.id], HISTORY_SCANS);
  await sql`analyze`.execute(db);
  const builder = new ReportBuilder(new ReportSourceRepository(db), new MailFlowSourceRepository(db), new SenderRequirementsSourceRepository(db, createLogger('bench', 'silent')));
  const source = { id: domain!.id, userId: user!.id, name: domain!.name, status: 'warning', isDeleted: false };

  const build = async () => builder.build({ id: 1, type: 'full' }, source, 'full');
  for (let i = 0; i < WARM_UP_RUNS; i++) await renderPdf(await build());
  const buildMs: number[] = [];
  const renderMs: number[] = [];
  const peerMs: number[] = [];
  let pages = 0;
  let bytes = 0;
  global.gc?.();
  const heapBefore = process.memoryUsage().heapUsed;
  const rssBefore = process.memoryUsage().rss;
  let peakHeap = heapBefore;
  let peakRss = rssBefore;
  const sampler = setInterval(() => {
    const m = process.memoryUsage();
    peakHeap = Math.max(peakHeap, m.heapUsed);
    peakRss = Math.max(peakRss, m.rss);
  }, 5);
  const cpu0 = process.cpuUsage();
  for (let i = 0; i < RUNS; i++) {
    const t0 = now();
    const document = await build();
    const t1 = now();
    const pdf = await renderPdf(document);
    const t2 = now();
    buildMs.push(t1 - t0);
    renderMs.push(t2 - t1);
    bytes = pdf.length;
    pages = Number(/\/Type \/Pages[\s\S]*?\/Count (\d+)/.exec(pdf.toString('latin1'))?.[1] ?? 0);
    const m = process.memoryUsage();
    peakHeap = Math.max(peakHeap, m.heapUsed);
    peakRss = Math.max(peakRss, m.rss);
  }
  const cpu = process.cpuUsage(cpu0);
  clearInterval(sampler);
  for (let i = 0; i < RUNS; i++) {
    const t0 = now();
    await barePdf(Math.max(1, pages));
    peerMs.push(now() - t0);
  }
  const totals = buildMs.map((b, i) => b + renderMs[i]!);
  return { buildMs, renderMs, totals, peerMs, pages, bytes, cpuMsPerReport: (cpu.user + cpu.system) / 1000 / RUNS, heapGrowthMb: (peakHeap - heapBefore) / MB, rssGrowthMb: (peakRss - rssBefore) / MB, peakRssMb: peakRss / MB };
}

async function burst(db: Database, databaseUrl: string) {
  const [user] = (await sql<{ id: number }>`insert into users (username, email, password_hash, plan_type) values ('burst', 'burst@bench.test', 'x', 'advanced') returning id`.execute(db)).rows;
  const domains = (await sql<{ id: number; name: string }>`insert into domains (user_id, name, status)
    select ${user!.id}, 'b' || i || '.bench.test', 'warning' from generate_series(1, ${BURST}) i returning id, name`.execute(db)).rows;
  await seedHistory(db, domains.map((d) => d.id), BURST_SCANS);
  const reports = (await sql<{ id: number }>`insert into reports (user_id, domain_id, type, status, data)
    select ${user!.id}, d.id, 'full', 'pending', jsonb_build_object('domainName', d.name, 'summary', 'pending')
    from domains d where d.user_id = ${user!.id} returning id`.execute(db)).rows;
  await sql`analyze`.execute(db);

  const main = `${ROOT}services/reports/dist/main.js`;
  if (!SMOKE && !existsSync(main)) throw new Error(`${main} is missing: build first (pnpm --filter @sendwell/reports build)`);
  const prefix = `bench-reports-${randomBytes(4).toString('hex')}`;
  const port = await freePort();
  const worker: ChildProcess = spawn(process.execPath, serviceArgs(COMPILED_NODE_FLAGS), {
    cwd: `${ROOT}services/reports`,
    env: { ...process.env, NODE_ENV: 'development', LOG_LEVEL: 'warn', PORT: String(port), DATABASE_URL: databaseUrl, DATABASE_POOL_MAX: '6', REDIS_URL, QUEUE_PREFIX: prefix, REPORT_CONCURRENCY: '2' },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  try {
    await waitForHealth(`http://127.0.0.1:${port}/health`, { child: worker });
    const redis = createRedis(REDIS_URL, 'client');
    const queues = createQueues(redis, prefix, createLogger('bench', 'silent'));
    const cpuBefore = processCpuMs(worker.pid!);
    // The API of the same process while it builds: GET /health every 50 ms, its latency recorded.
    const latencies: number[] = [];
    let probing = true;
    const probe = (async () => {
      while (probing) {
        const s0 = now();
        await fetch(`http://127.0.0.1:${port}/health`).then((r) => r.arrayBuffer());
        latencies.push(now() - s0);
        await sleep(50);
      }
    })();
    const t0 = now();
    await queues.addBulk(JobName.GenerateReport, reports.map((r) => ({ data: { reportId: r.id }, opts: { jobId: generateReportJobId(r.id) } })));
    for (;;) {
      await sleep(200);
      const [{ done, failed }] = (await sql<{ done: number; failed: number }>`select count(*) filter (where status = 'completed')::int as done, count(*) filter (where status = 'failed')::int as failed from reports where user_id = ${user!.id}`.execute(db)).rows as [{ done: number; failed: number }];
      if (failed > 0) throw new Error(`${failed} reports failed`);
      if (done === reports.length) break;
      if (now() - t0 > 600_000) throw new Error(`only ${done} of ${reports.length} reports after 10 minutes`);
    }
    const elapsedMs = now() - t0;
    const cpuMs = processCpuMs(worker.pid!) - cpuBefore;
    probing = false;
    await probe;
    await queues.close();
    await closeRedis(redis);
    const [{ avg }] = (await sql<{ avg: number }>`select avg(length(pdf))::int as avg from report_documents`.execute(db)).rows as [{ avg: number }];
    return { count: reports.length, elapsedMs, cpuMsPerReport: cpuMs / reports.length, avgPdfKb: avg / 1024, healthP50: median(latencies), healthP99: [...latencies].sort((a, b) => a - b)[Math.floor(latencies.length * 0.99)]!, probes: latencies.length };
  } finally {
    await stopChild(worker);
    await deleteKeys(`${prefix}:`, REDIS_URL);
  }
}

async function main() {
  const database = await createTestDatabase(SERVER_URL);
  const db = createDb({ connectionString: database.url, max: 6 });
  try {
    const one = await singleReport(db);
    const total = median(one.totals);
    console.log(`one full report, ${HISTORY_SCANS} scans of history (${one.pages} pages, ${(one.bytes / 1024).toFixed(0)} KB PDF), ${RUNS} runs after warm-up`);
    console.log(`  document from Postgres: median ${median(one.buildMs).toFixed(1)} ms, p95 ${p95(one.buildMs).toFixed(1)} ms`);
    console.log(`  PDF render: median ${median(one.renderMs).toFixed(1)} ms, p95 ${p95(one.renderMs).toFixed(1)} ms`);
    console.log(`  total: median ${total.toFixed(1)} ms, p95 ${p95(one.totals).toFixed(1)} ms (target < ${TARGET_MS} ms) ${p95(one.totals) < TARGET_MS ? 'MET' : 'MISSED'}; CPU ${one.cpuMsPerReport.toFixed(1)} ms per report in this process`);
    console.log(
      `  memory while generating: heap +${one.heapGrowthMb.toFixed(1)} MB, RSS +${one.rssGrowthMb.toFixed(1)} MB (peak RSS ${one.peakRssMb.toFixed(0)} MB) (target < ${TARGET_MB} MB) ${Math.max(one.heapGrowthMb, one.rssGrowthMb) < TARGET_MB ? 'MET' : 'MISSED'}`,
    );
    console.log(`  peer, bare pdfkit with ${one.pages} pages of plain text: median ${median(one.peerMs).toFixed(1)} ms; report render / bare = ${(median(one.renderMs) / median(one.peerMs)).toFixed(2)}`);

    const b = await burst(db, database.url);
    console.log(`burst: ${b.count} full reports (${BURST_SCANS} scans of history each) through one ${SMOKE ? 'reports worker from its sources (smoke)' : 'compiled reports worker'} (concurrency 2)`);
    console.log(`  ${(b.elapsedMs / 1000).toFixed(2)} s in all: ${((b.count * 1000) / b.elapsedMs).toFixed(1)} reports/s; worker CPU ${b.cpuMsPerReport.toFixed(1)} ms per report; average PDF ${b.avgPdfKb.toFixed(0)} KB`);
    console.log(`  the same process's API meanwhile (GET /health every 50 ms, ${b.probes} probes): p50 ${b.healthP50.toFixed(1)} ms, p99 ${b.healthP99.toFixed(1)} ms`);
    console.log(`  load average ${loadAverage()}`);
    smokeResult('reports', {
      counts: { 'PDF pages': one.pages, 'PDF bytes': one.bytes, 'report total median ms': total, 'burst reports': b.count, 'burst reports per second': (b.count * 1000) / b.elapsedMs, 'average burst PDF KB': b.avgPdfKb },
      values: { 'worker CPU ms per report': b.cpuMsPerReport, 'health probes': b.probes },
    });
  } finally {
    await db.destroy();
    await database.drop();
  }
}

await main();
