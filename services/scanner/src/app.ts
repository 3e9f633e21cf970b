import { createApp, registerHealth, type App, type Logger } from '@sendwell/server-kit';
import type { Database } from '@sendwell/db';
import type { Redis } from 'ioredis';
import type { BlocklistRegistry } from './blocklists/registry.js';
import type { Env } from './env.js';
import type { ScanMetrics } from './workers/scan-metrics.js';

export interface AppDeps {
  env: Pick<Env, 'TRUSTED_PROXIES'>;
  logger: Logger;
  db: Database;
  /** The queues' connection: ready means jobs can be fetched and added. */
  queueRedis: Redis;
  metrics: ScanMetrics;
  blocklists: Pick<BlocklistRegistry, 'states'>;
}

/** The scanner's HTTP side: health for orchestration and Prometheus metrics. It never listens. */
export async function buildApp({ env, logger, db, queueRedis, metrics, blocklists }: AppDeps): Promise<App> {
  const app = createApp({ logger, trustedProxies: env.TRUSTED_PROXIES });
  registerHealth(app, { service: 'scanner', db, redis: queueRedis });
  app.get('/metrics', { logLevel: 'warn' }, async (_request, reply) => {
    const body = await metrics.registry.metrics();
    return reply.type(metrics.registry.contentType).send(body);
  });
  // The block lists' self-test results, for the administrator's server statistics (through the gateway).
  app.get('/internal/blocklists', { logLevel: 'warn' }, async () => blocklists.states());
  return app;
}
