/**
 * Alert delivery (issue 14): the domains service's notify worker, compiled as production runs it,
 * delivering to a local HTTPS receiver in its own process. Two figures, one run:
 *   - fan-out: 10,000 domains (1,000 advanced users × 10) change at once, one alert each; the time
 *     until every alert's fan-out has run (its channels chosen, a row and a job per channel);
 *   - deliveries per second per worker (target ≥ 500/s): each alert goes to the user's Teams webhook
 *     and a signed custom webhook, 20,000 deliveries; the rate between 10 % and 90 % sent, and the
 *     worker's CPU milliseconds per delivery.
 * The peer, run side by side: a bare undici client posting bodies of the same size to the same
 * receiver at the same concurrency, which is what the machine allows at all; the ratio is the
 * worker's share of it (the rest is the database rows, the queue and the signing).
 *
 *   pnpm --filter @sendwell/bench bench notify
 *   BENCH_NOTIFY_USERS=1000 BENCH_NOTIFY_CONCURRENCY=50
 *   BENCH_SMOKE=1   (lib/smoke.ts) the worker from its sources, 5 users, no target judged
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { rootCertificates } from 'node:tls';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { JobName, sendAlertJobId } from '@sendwell/contracts';
import { createDb, sql } from '@sendwell/db';
import { createTestDatabase } from '@sendwell/db/testing';
import { deleteKeys } from '@sendwell/testing';
import { closeRedis, createLogger, createQueues, createRedis } from '@sendwell/server-kit';
import { Agent, request } from 'undici';
import { COMPILED_NODE_FLAGS } from '../../scripts/lib/services.js';
import { integrationKeys } from '../../services/domains/src/notify/notify.env.js';
import { sealedFor, SecretBox } from '../../services/domains/src/notify/secret-box.js';
import { freePort, loadAverage, processCpuMs, stopChild, waitForHealth } from '../lib/processes.js';
import { serviceArgs, sized, SMOKE, smokeResult } from '../lib/smoke.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SERVER_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const USERS = sized('BENCH_NOTIFY_USERS', 1_000, 5);
const DOMAINS_PER_USER = 10;
const CONCURRENCY = sized('BENCH_NOTIFY_CONCURRENCY', 50, 10);
const CHANNELS = 2;
const TARGET_PER_SECOND = 500;

const now = () => performance.now();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The receiver process: its URL and CA, and a way to ask how many requests it has taken. */
async function startReceiver(): Promise<{ child: ChildProcess; url: string; caFile: string; count(): Promise<number> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'notify/receiver.ts'], { cwd: `${ROOT}bench`, stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout! });
  const waiting: Array<(line: string) => void> = [];
  lines.on('line', (line) => waiting.shift()?.(line));
  const next = () => new Promise<string>((resolve) => waiting.push(resolve));
  const { url, caFile } = JSON.parse(await next()) as { url: string; caFile: string };
  return {
    child,
    url,
    caFile,
    async count() {
      const answer = next();
      child.stdin!.write('count\n');
      return (JSON.parse(await answer) as { count: number }).count;
    },
  };
}

async function main() {
  const database = await createTestDatabase(SERVER_URL);
  const db = createDb({ connectionString: database.url, max: 4 });
  const prefix = `bench-notify-${randomBytes(4).toString('hex')}`;
  const receiver = await startReceiver();
  const children: ChildProcess[] = [receiver.child];
  try {
    // 1,000 advanced users, 10 domains each; each with a Teams webhook and a signed custom webhook; alert emails off.
    // Sealed per user (each value is bound to its owner), with the development key the service defaults to.
    const box = new SecretBox(integrationKeys({}));
    const secret = `whsec_${randomBytes(32).toString('base64url')}`;
    await sql`insert into users (username, email, password_hash, plan_type)
      select 'bench' || i, 'bench' || i || '@bench.test', 'x', 'advanced' from generate_series(1, ${USERS}) i`.execute(db);
    await sql`insert into domains (user_id, name) select u.id, 'd' || d || '-' || u.id || '.bench.test' from users u, generate_series(1, ${DOMAINS_PER_USER}) d`.execute(db);
    await sql`insert into notification_preferences (user_id, email_alerts) select id, false from users`.execute(db);
    const { rows: users } = await sql<{ id: number }>`select id from users`.execute(db);
    const userIds = users.map((u) => u.id);
    const teams = userIds.map((id) => JSON.stringify({ sealed: box.sealJson({ webhookUrl: `${receiver.url}/teams` }, sealedFor.integration(id, 'teams')) }));
    const secrets = userIds.map((id) => box.seal(secret, sealedFor.webhookSecret(id)));
    await sql`insert into integrations (user_id, service, config) select id, 'teams', config::jsonb from unnest(${userIds}::int[], ${teams}::text[]) as t(id, config)`.execute(db);
    await sql`insert into webhook_endpoints (user_id, url, sealed_secret) select id, ${`${receiver.url}/hooks`}, sealed from unnest(${userIds}::int[], ${secrets}::text[]) as t(id, sealed)`.execute(db);

    const main = `${ROOT}services/domains/dist/main.js`;
    if (!SMOKE && !existsSync(main)) throw new Error(`${main} is missing: build first (pnpm --filter @sendwell/bench bench builds every service)`);
    const port = await freePort();
    const worker = spawn(process.execPath, serviceArgs(COMPILED_NODE_FLAGS), {
      cwd: `${ROOT}services/domains`,
      env: {
        ...process.env,
        NODE_ENV: 'development',
        LOG_LEVEL: 'warn',
        PORT: String(port),
        DATABASE_URL: database.url,
        DATABASE_POOL_MAX: '10',
        REDIS_URL,
        QUEUE_PREFIX: prefix,
        ALLOW_LOOPBACK_TARGETS: 'true',
        OUTBOUND_EXTRA_CA_FILE: receiver.caFile,
        NOTIFY_CONCURRENCY: String(CONCURRENCY),
        MAINTENANCE_WORKER: 'false',
      },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    children.push(worker);
    await waitForHealth(`http://127.0.0.1:${port}/health`, { child: worker });

    // 10,000 domains change at once: one alert each, all fan-outs queued in one go (as a sweep of scans would).
    const alerts = await sql<{ id: number }>`insert into domain_alerts (domain_id, user_id, type, severity, title, message)
      select id, user_id, 'dns_change', 'high', 'DNS records changed for ' || name, 'Since the previous scan: MX changed.' from domains returning id`.execute(db);
    const ids = alerts.rows.map((r) => r.id);
    const total = ids.length * CHANNELS;
    const redis = createRedis(REDIS_URL, 'client');
    const queues = createQueues(redis, prefix, createLogger('bench', 'silent'));
    const cpuBefore = processCpuMs(worker.pid!);
    const t0 = now();
    for (let i = 0; i < ids.length; i += 1000) {
      await queues.addBulk(JobName.SendAlert, ids.slice(i, i + 1000).map((alertId) => ({ data: { alertId, event: 'raised' as const }, opts: { jobId: sendAlertJobId(alertId, 'raised') } })));
    }

    let fanOutMs: number | null = null;
    const marks: Array<{ t: number; sent: number }> = [];
    for (;;) {
      await sleep(250);
      const t = now();
      const [{ fanned }] = (await sql<{ fanned: number }>`select count(*)::int as fanned from domain_alerts where notified_at is not null`.execute(db)).rows as [{ fanned: number }];
      const [{ sent }] = (await sql<{ sent: number }>`select count(*)::int as sent from alert_deliveries where status = 'sent'`.execute(db)).rows as [{ sent: number }];
      if (fanOutMs === null && fanned === ids.length) fanOutMs = t - t0;
      marks.push({ t, sent });
      if (sent >= total) break;
      if (t - t0 > 600_000) throw new Error(`only ${sent} of ${total} deliveries after 10 minutes`);
    }
    const elapsedMs = now() - t0;
    const cpuMs = processCpuMs(worker.pid!) - cpuBefore;
    const at = (share: number) => marks.find((m) => m.sent >= total * share)!;
    const [p10, p90] = [at(0.1), at(0.9)];
    // A small run can be sent between two polls: then the rate over the whole run.
    const steadyRate = p90.t > p10.t ? ((p90.sent - p10.sent) * 1000) / (p90.t - p10.t) : (total * 1000) / elapsedMs;
    const received = await receiver.count();
    await queues.close();
    await closeRedis(redis);
    await stopChild(worker);

    // The peer: a bare client, same receiver, same concurrency, a body of the same size.
    const body = JSON.stringify({ id: 'evt_1_raised', type: 'alert.raised', padding: 'x'.repeat(900) });
    const agent = new Agent({ connect: { ca: [...rootCertificates, readFileSync(receiver.caFile, 'utf8')] }, connections: 64 });
    let next = 0;
    const b0 = now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next++ < total) {
          const res = await request(`${receiver.url}/peer`, { method: 'POST', body, headers: { 'content-type': 'application/json' }, dispatcher: agent });
          await res.body.dump();
        }
      }),
    );
    const bareRate = (total * 1000) / (now() - b0);
    await agent.close();

    console.log(`notify worker (${SMOKE ? 'from sources, smoke' : 'compiled'}, concurrency ${CONCURRENCY}) → HTTPS receiver, ${ids.length} alerts × ${CHANNELS} channels = ${total} deliveries`);
    console.log(`  fan-out of ${ids.length} domains changing at once: ${((fanOutMs ?? elapsedMs) / 1000).toFixed(2)} s (${(((fanOutMs ?? elapsedMs) * 1000) / ids.length).toFixed(0)} µs per alert)`);
    console.log(`  deliveries: ${total} in ${(elapsedMs / 1000).toFixed(2)} s from the first fan-out queued; steady rate (10-90 %) ${steadyRate.toFixed(0)}/s (target ≥ ${TARGET_PER_SECOND}/s) ${steadyRate >= TARGET_PER_SECOND ? 'MET' : 'MISSED'}`);
    console.log(`  worker CPU: ${(cpuMs / total).toFixed(3)} ms per delivery (fan-out included); receiver counted ${received}`);
    console.log(`  peer, bare undici client → same receiver, concurrency ${CONCURRENCY}: ${bareRate.toFixed(0)} posts/s; worker / bare = ${(steadyRate / bareRate).toFixed(2)}`);
    console.log(`  load average ${loadAverage()}`);
    smokeResult('notify', {
      counts: { alerts: ids.length, deliveries: total, 'deliveries per second': steadyRate, 'peer posts per second': bareRate },
      values: { 'worker CPU ms per delivery': cpuMs / total },
      conditions: { 'the receiver counted every delivery': received >= total },
    });
  } finally {
    await Promise.all(children.map(stopChild));
    await db.destroy();
    await database.drop();
    await deleteKeys(`${prefix}:`, REDIS_URL);
  }
}

await main();
