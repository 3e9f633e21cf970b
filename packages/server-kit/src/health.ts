import { sql, type Database } from '@sendwell/db';
import type { Redis } from 'ioredis';
import type { App } from './app.js';

export interface HealthDeps {
  service: string;
  db?: Database;
  redis?: Redis;
}

/**
 * `/health`: the process is up. `/health/ready`: it can reach what it needs (503 otherwise), for
 * container healthchecks and the start script.
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
}
