/**
 * Section 4 of the scanner benchmark: the real sweeper (`packages/scan-engine/src/schedule/sweeper.ts`)
 * claiming and enqueueing due domains from a table of a million, on a fresh database cloned from
 * the migrated template and a unique BullMQ prefix on the shared Redis. Postgres and Redis are their
 * own processes; this process is only the sweeper.
 */
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { createDb, sql } from '@sendwell/db';
import { createTestDatabase } from '@sendwell/db/testing';
import { createLogger, createQueues, createRedis } from '@sendwell/server-kit';
import { resolveTestServices } from '@sendwell/testing';
import { randomBytes } from 'node:crypto';
import { DueDomains } from '../../packages/scan-engine/src/schedule/due-domains.js';
import { Sweeper } from '../../packages/scan-engine/src/schedule/sweeper.js';
import { judge, type Verdict } from './report.js';
import { loadAverage } from '../lib/processes.js';

const TARGET_PER_SECOND = 5_000;

interface CompiledQueryLike {
  sql: string;
  parameters: readonly unknown[];
  query: unknown;
  queryId: unknown;
}

export async function sweepBench(options: { domains: number; users: number; batch: number }): Promise<{ verdict: Verdict; figures: Record<string, unknown> }> {
  console.log(`\n[4] scheduler: ${options.domains.toLocaleString('en')} due domains of ${options.users} paid users, batch ${options.batch}; load average ${loadAverage()}`);
  const services = await resolveTestServices();
  const testDb = await createTestDatabase(services.postgresUrl);
  const db = createDb({ connectionString: testDb.url, max: 4, applicationName: 'bench-sweeper' });
  const redis = createRedis(services.redisUrl, 'client');
  const prefix = `bench-sweep-${randomBytes(4).toString('hex')}`;
  const logger = createLogger('bench-sweeper', 'warn');
  const queues = createQueues(redis, prefix, logger);
  try {
    const fillStart = performance.now();
    await sql`
      insert into users (username, email, password_hash, plan_type)
      select 'bench' || g, 'bench' || g || '@bench.example', 'x', (array['basic', 'standard', 'advanced'])[1 + g % 3]
      from generate_series(1, ${options.users}) g
    `.execute(db);
    // Due times spread over the last hour, as a backlog of overdue domains would be.
    await sql`
      insert into domains (user_id, name, next_scan_at)
      select u.first + (g % ${options.users}), 'd' || g || '.bench.example', now() - (g % 3600) * interval '1 second'
      from generate_series(1, ${options.domains}) g, (select min(id) as first from users) u
    `.execute(db);
    await sql`analyze users`.execute(db);
    await sql`analyze domains`.execute(db);
    console.log(`    filled in ${((performance.now() - fillStart) / 1000).toFixed(1)} s`);

    // The EXPLAIN of the very statement claimDue sends: captured through a plugin, then explained
    // (plain EXPLAIN does not execute the data-modifying CTEs).
    let captured: CompiledQueryLike | undefined;
    const capturing = db.withPlugin({
      transformQuery(args) {
        captured = db.getExecutor().compileQuery(args.node, args.queryId) as unknown as CompiledQueryLike;
        return args.node;
      },
      transformResult: async (args) => args.result,
    });
    await capturing.transaction().execute(async (trx) => {
      await new DueDomains(trx).claimDue(options.batch, 600_000);
      throw new RollbackForExplain();
    }).catch((error: unknown) => {
      if (!(error instanceof RollbackForExplain)) throw error;
    });
    if (!captured) throw new Error('the claim query was not captured');
    const plan = await db.executeQuery<{ 'QUERY PLAN': string }>({
      ...captured,
      sql: `explain ${captured.sql}`,
    } as never);
    const lines = plan.rows.map((row) => row['QUERY PLAN']);
    console.log('    EXPLAIN of the claim query:');
    for (const line of lines) console.log(`      ${line}`);
    const usesIndex = lines.some((line) => line.includes('domains_due_idx'));
    console.log(`    partial index domains_due_idx used: ${usesIndex ? 'yes' : 'NO'}`);

    // Time spent in Redis (addBulk) against the rest (the claim statement in Postgres).
    let enqueueMs = 0;
    const addBulk = queues.scan.addBulk.bind(queues.scan);
    queues.scan.addBulk = async (jobs) => {
      const started = performance.now();
      try {
        return await addBulk(jobs);
      } finally {
        enqueueMs += performance.now() - started;
      }
    };
    const sweeper = new Sweeper(db, queues.scan, { batch: options.batch, leaseMs: 600_000 }, logger);
    // redis-server's own CPU (INFO cpu), to show which side of the enqueue is the bottleneck.
    const redisCpu = async (): Promise<number> => {
      const info = await redis.info('cpu');
      const field = (name: string) => Number(new RegExp(`^${name}:([\\d.]+)`, 'm').exec(info)?.[1] ?? NaN);
      return field('used_cpu_sys') + field('used_cpu_user');
    };
    const ownCpu = () => {
      const usage = process.cpuUsage();
      return (usage.user + usage.system) / 1e6;
    };
    const redisCpu0 = await redisCpu();
    const ownCpu0 = ownCpu();
    let claimed = 0;
    let queued = 0;
    let sweeps = 0;
    const start = performance.now();
    // As production runs it: one sweep job after another (each up to 50 batches, claimed and queued
    // by 3 concurrent lanes, the default) until nothing is due.
    for (;;) {
      const result = await sweeper.sweep();
      sweeps++;
      claimed += result.claimed;
      queued += result.queued;
      if (result.claimed === 0) break;
    }
    const seconds = (performance.now() - start) / 1000;
    const waiting = await queues.scan.getWaitingCount();
    const perSecond = queued / seconds;
    console.log(`    claimed ${claimed.toLocaleString('en')}, enqueued ${queued.toLocaleString('en')} (${waiting.toLocaleString('en')} jobs waiting in Redis) in ${seconds.toFixed(1)} s over ${sweeps} sweeps; load average ${loadAverage()}`);
    const sweeperCpu = ownCpu() - ownCpu0;
    const redisCpuUsed = (await redisCpu()) - redisCpu0;
    console.log(`    time inside addBulk ${(enqueueMs / 1000).toFixed(1)} s (summed over the lanes' concurrent calls; claims overlap them); CPU: sweeper process ${sweeperCpu.toFixed(1)} s, redis-server ${redisCpuUsed.toFixed(1)} s`);
    const verdict = judge('domains claimed + enqueued per second', perSecond, TARGET_PER_SECOND, '>=', '/s');
    if (!usesIndex) verdict.pass = false;
    return { verdict, figures: { domains: options.domains, batch: options.batch, claimed, queued, waiting, seconds, enqueueSeconds: enqueueMs / 1000, sweeperCpuSeconds: sweeperCpu, redisCpuSeconds: redisCpuUsed, perSecond, usesIndex, plan: lines, loadAverage: loadavg() } };
  } finally {
    await queues.close().catch(() => undefined);
    await deleteKeys(redis, prefix);
    await redis.quit().catch(() => undefined);
    await db.destroy();
    await testDb.drop();
    await services.stop();
  }
}

class RollbackForExplain extends Error {}

async function deleteKeys(redis: ReturnType<typeof createRedis>, prefix: string): Promise<void> {
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 5_000);
    cursor = next;
    if (keys.length > 0) await redis.unlink(...keys);
  } while (cursor !== '0');
}
