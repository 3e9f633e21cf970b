import { createDb, type Database } from '@sendwell/db';
import { QueueName } from '@sendwell/contracts';
import { closeRedis, createJobWorker, createQueues, createRedis, type Logger, type Queues } from '@sendwell/server-kit';
import type { Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { EmailVerifier } from './email-verify/email-verifier.js';
import { emailVerifierConfig } from './email-verify/email-verify.env.js';
import { createDnsResolver } from './email-verify/mail-hosts.js';
import { FixedWindowRepository } from './repositories/fixed-window.repository.js';
import type { Env } from './env.js';
import { AlertService } from './services/alert.service.js';
import { CheckService } from './services/check.service.js';
import { CleanUpService } from './services/clean-up.service.js';
import { DomainService } from './services/domain.service.js';
import { EmailVerifyService } from './services/email-verify.service.js';
import { SampleDomainService } from './services/sample-domain.service.js';
import { ScanService } from './services/scan.service.js';
import { maintenanceHandlers } from './workers/maintenance.handlers.js';
import { scheduleMaintenance } from './workers/maintenance.schedulers.js';

export interface Deps {
  env: Env;
  logger: Logger;
  db: Database;
  /** Producer connection (no offline queue: a down Redis fails an HTTP call fast, 503). */
  redis: Redis;
  queues: Queues;
  services: {
    domains: DomainService;
    scans: ScanService;
    checks: CheckService;
    /* --- other engineer: alerts, sample domains, email verification services --- */
    alerts: AlertService;
    sampleDomains: SampleDomainService;
    emailVerify: EmailVerifyService;
  };
  /** Registers the daily purge and starts the maintenance Worker (when MAINTENANCE_WORKER is on). */
  startMaintenance(): Promise<Worker | null>;
  /** Workers first, then queues, Redis and the pool; close the HTTP server before. */
  close(): Promise<void>;
}

/** All wiring of the service, in one place. */
export function createDeps(env: Env, logger: Logger): Deps {
  const db = createDb({
    connectionString: env.DATABASE_URL,
    max: env.DATABASE_POOL_MAX,
    applicationName: 'sendwell-domains',
    onConnectionError: (err) => logger.warn({ err }, 'database connection lost; the pool opens another'),
  });
  const redis = createRedis(env.REDIS_URL, 'producer');
  redis.on('error', (err) => logger.error({ err }, 'redis (producer) error'));
  const queues = createQueues(redis, env.QUEUE_PREFIX, logger);

  const scans = new ScanService(db, queues, logger.child({ module: 'ScanService' }));
  const domains = new DomainService(db, scans, logger.child({ module: 'DomainService' }));
  const checks = new CheckService(db, domains);
  // Alerts, quick check and email verification (the other engineer's part).
  const verify = emailVerifierConfig(env);
  const emailVerifier = new EmailVerifier(createDnsResolver(verify.dns), verify.verifier, logger.child({ module: 'EmailVerifier' }));

  const workers: Worker[] = [];
  const workerConnections: Redis[] = [];

  return {
    env,
    logger,
    db,
    redis,
    queues,
    services: {
      domains,
      scans,
      checks,
      /* --- other engineer: alerts, sample domains, email verification services --- */
      alerts: new AlertService(db),
      sampleDomains: new SampleDomainService(db, queues, new FixedWindowRepository(redis, env.QUEUE_PREFIX), logger.child({ module: 'SampleDomainService' }), {
        newPerMinute: env.SAMPLE_DOMAINS_PER_MINUTE,
      }),
      emailVerify: new EmailVerifyService(emailVerifier, new FixedWindowRepository(redis, env.QUEUE_PREFIX), verify.rateLimit),
    },
    async startMaintenance() {
      await scheduleMaintenance(queues.maintenance, logger.child({ module: 'scheduler' }));
      if (!env.MAINTENANCE_WORKER) return null;
      const connection = createRedis(env.REDIS_URL, 'worker');
      connection.on('error', (err) => logger.error({ err }, 'redis (worker) error'));
      workerConnections.push(connection);
      const worker = createJobWorker({
        queue: QueueName.Maintenance,
        connection,
        prefix: env.QUEUE_PREFIX,
        concurrency: env.MAINTENANCE_CONCURRENCY,
        handlers: maintenanceHandlers(domains, new CleanUpService(db, logger.child({ module: 'CleanUpService' }))),
        logger,
      });
      workers.push(worker);
      // Ready before it is handed out, so a quick close never races the worker's own start-up commands.
      await worker.waitUntilReady();
      return worker;
    },
    async close() {
      await Promise.all(workers.splice(0).map((w) => w.close()));
      await queues.close();
      await Promise.all([redis, ...workerConnections.splice(0)].map(closeRedis));
      await db.destroy();
    },
  };
}
