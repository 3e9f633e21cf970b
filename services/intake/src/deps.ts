import { QueueName } from '@sendwell/contracts';
import { createDb, type Database } from '@sendwell/db';
import { closeRedis, createJobWorker, createQueues, createRedis, keepJobSchedulers, SystemCounters, type Logger, type Queues } from '@sendwell/server-kit';
import type { Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { ReportDomainRepository } from './addresses/report-domain.repository.js';
import { MailFlowAlerts } from './alerts/mail-flow-alerts.js';
import type { Env } from './env.js';
import { IntakeMessageRepository } from './intake/intake-message.repository.js';
import { ChannelRelay } from './mail-tests/channel-relay.js';
import { MailTestRepository } from './mail-tests/mail-test.repository.js';
import { SourceNamer } from './naming/source-namer.js';
import { ReportReaderPool } from './reports/report-reader-pool.js';
import { intakeHandlers } from './workers/intake.handlers.js';
import { intakeSchedulers } from './workers/intake.schedulers.js';

export interface Deps {
  env: Env;
  logger: Logger;
  db: Database;
  /** Producer connection (no offline queue: a down Redis fails a call or an SMTP transaction fast). */
  redis: Redis;
  queues: Queues;
  reportDomains: ReportDomainRepository;
  messages: IntakeMessageRepository;
  mailTests: MailTestRepository;
  /** The one Redis subscriber of the process, relaying mail-test changes to the open event streams. */
  mailTestEvents: ChannelRelay;
  namer: SourceNamer;
  alerts: MailFlowAlerts;
  /** The administrator's running figures (alerts raised here are counted with everyone's). */
  counters: SystemCounters;
  /** Threads that read report files, off the event loop the SMTP and HTTP servers share. */
  reportReader: ReportReaderPool;
  /** Registers the recurring jobs and starts the intake Worker (when INTAKE_WORKER is on). */
  startWorker(): Promise<Worker | null>;
  /** Worker first, then the report readers, queues, Redis (the subscriber too) and the pool; close the HTTP and SMTP servers before. */
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
  const counters = new SystemCounters(redis, env.QUEUE_PREFIX, { logger: logger.child({ module: 'SystemCounters' }) });

  let worker: Worker | null = null;
  let workerConnection: Redis | null = null;
  const deps: Deps = {
    env,
    logger,
    db,
    redis,
    queues,
    reportDomains: new ReportDomainRepository(db),
    messages: new IntakeMessageRepository(db),
    mailTests: new MailTestRepository(db),
    // A subscriber connection serves nothing else; 'client' waits for its connection rather than failing while it connects.
    mailTestEvents: new ChannelRelay(() => createRedis(env.REDIS_URL, 'client'), logger.child({ module: 'ChannelRelay' })),
    namer: new SourceNamer(db, { dnsServers: env.DNS_SERVERS, dnsTimeoutMs: env.DNS_TIMEOUT_MS }, logger.child({ module: 'SourceNamer' })),
    counters,
    alerts: new MailFlowAlerts(db, queues, logger.child({ module: 'MailFlowAlerts' }), counters),
    // As many reads at once as the worker runs jobs; an upload waits its turn behind them.
    reportReader: new ReportReaderPool(env.INTAKE_CONCURRENCY),
    async startWorker() {
      await keepJobSchedulers(queues.intake, intakeSchedulers, logger.child({ module: 'scheduler' }));
      if (!env.INTAKE_WORKER) return null;
      workerConnection = createRedis(env.REDIS_URL, 'worker');
      workerConnection.on('error', (err) => logger.error({ err }, 'redis (intake worker) error'));
      worker = createJobWorker({
        queue: QueueName.Intake,
        connection: workerConnection,
        prefix: env.QUEUE_PREFIX,
        concurrency: env.INTAKE_CONCURRENCY,
        handlers: intakeHandlers(deps),
        logger,
      });
      await worker.waitUntilReady();
      return worker;
    },
    async close() {
      await worker?.close();
      await deps.reportReader.close();
      await queues.close();
      await deps.mailTestEvents.close();
      await Promise.all([redis, ...(workerConnection ? [workerConnection] : [])].map(closeRedis));
      await db.destroy();
    },
  };
  return deps;
}
