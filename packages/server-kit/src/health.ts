import type { ServiceStats } from '@sendwell/contracts';
import { databaseStats, sql, type Database } from '@sendwell/db';
import type { Redis } from 'ioredis';
import type { App } from './app.js';

export interface HealthDeps {
  service: string;
  db?: Database;
  redis?: Redis;
}

const megabytes = (bytes: number) => Math.round((bytes / 1_048_576) * 10) / 10;

/** This process's pool, recent statement times and memory, for the administrator's statistics. */
export function serviceStats(service: string, db: Database | undefined): ServiceStats {
  const database = db ? databaseStats(db) : null;
  const memory = process.memoryUsage();
  return {
    service,
    pool: database?.pool ?? null,
    queries: database?.queries ?? null,
    process: { uptimeSeconds: Math.round(process.uptime()), heapUsedMB: megabytes(memory.heapUsed), rssMB: megabytes(memory.rss) },
  };
}

/**
 * `/health`: the process is up. `/health/ready`: it can reach what it needs (503 otherwise), for
 * container healthchecks and the start script. `/internal/stats`: pool counters, statement times and
 * memory, which the gateway gathers for the administrator; like readiness it tells how the process is
 * doing, not what it holds, and the gateway never forwards `/internal` from outside.
 */
export function registerHealth(app: App, { service, db, redis }: HealthDeps): void {
  app.get('/health', { logLevel: 'warn' }, async () => ({ status: 'ok', service }));
  app.get('/health/ready', { logLevel: 'warn' }, async (_request, reply) => {
    const checks: Record<string, boolean> = {};
    if (db) checks.postgres = await sql`select 1`.execute(db).then(() => true, () => false);
    if (redis) checks.redis = await redis.ping().then((r) => r === 'PONG', () => false);
    const ok = Object.values(checks).every(Boolean);
    return reply.status(ok ? 200 : 503).send({ status: ok ? 'ok' : 'unavailable', service, checks });
  });
  app.get('/internal/stats', { logLevel: 'warn' }, async () => serviceStats(service, db));
}
