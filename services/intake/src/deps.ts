import { createDb, type Database } from '@sendwell/db';
import { closeRedis, createQueues, createRedis, type Logger, type Queues } from '@sendwell/server-kit';
import type { Redis } from 'ioredis';
import { ReportDomainRepository } from './addresses/report-domain.repository.js';
import type { Env } from './env.js';
import { IntakeMessageRepository } from './intake/intake-message.repository.js';

export interface Deps {
  env: Env;
  logger: Logger;
  db: Database;
  /** Producer connection (no offline queue: a down Redis fails a call or an SMTP transaction fast). */
  redis: Redis;
  queues: Queues;
  reportDomains: ReportDomainRepository;
  messages: IntakeMessageRepository;
  /** Queues, Redis and the pool; close the HTTP and SMTP servers and the worker before. */
  close(): Promise<void>;
}

/** All wiring of the service, in one place. */
export function createDeps(env: Env, logger: Logger): Deps {
  const db = createDb({
    connectionString: env.DATABASE_URL,
    max: env.DATABASE_POOL_MAX,
    applicationName: 'sendwell-intake',
    onConnectionError: (err) => logger.warn({ err }, 'database connection lost; the pool opens another'),
  });
  const redis = createRedis(env.REDIS_URL, 'producer');
  redis.on('error', (err) => logger.error({ err }, 'redis (producer) error'));
  const queues = createQueues(redis, env.QUEUE_PREFIX, logger);
  return {
    env,
    logger,
    db,
    redis,
    queues,
    reportDomains: new ReportDomainRepository(db),
    messages: new IntakeMessageRepository(db),
    async close() {
      await queues.close();
      await closeRedis(redis);
      await db.destroy();
    },
  };
}
