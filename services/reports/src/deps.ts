import { QueueName } from '@sendwell/contracts';
import { createDb, type Database } from '@sendwell/db';
import {
  closeRedis,
  createJobWorker,
  createMailer,
  createQueues,
  createRedis,
  defaultOutboxDir,
  keepJobSchedulers,
  type Logger,
  type Mailer,
  type Queues,
} from '@sendwell/server-kit';
import type { Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Env } from './env.js';
import { AutomatedReports } from './generation/automated-reports.js';
import { ReportBuilder } from './generation/report-builder.js';
import { ReportGenerator } from './generation/report-generator.js';
import { PdfRenderPool } from './render/pdf/pdf-pool.js';
import { MailFlowSourceRepository } from './repositories/mail-flow-source.repository.js';
import { ReportRepository } from './repositories/report.repository.js';
import { ReportSourceRepository } from './repositories/report-source.repository.js';
import { SenderRequirementsSourceRepository } from './repositories/sender-requirements-source.repository.js';
import { ReportService } from './services/report.service.js';
import { reportHandlers } from './workers/report.handlers.js';
import { reportSchedulers } from './workers/report.schedulers.js';

export interface Deps {
  env: Env;
  logger: Logger;
  db: Database;
  /** Producer connection (no offline queue: a down Redis fails an HTTP call fast). */
  redis: Redis;
  queues: Queues;
  mailer: Mailer;
  services: { reports: ReportService; generator: ReportGenerator; automated: AutomatedReports };
  /** Registers the automated schedule and starts the report Worker (when REPORT_WORKER is on). */
  startWorker(): Promise<Worker | null>;
  /** Worker first, then queues, Redis, mail and the pool; close the HTTP server before. */
  close(): Promise<void>;
}

/** All wiring of the service, in one place. */
export function createDeps(env: Env, logger: Logger): Deps {
  const db = createDb({
    connectionString: env.DATABASE_URL,
    max: env.DATABASE_POOL_MAX,
    applicationName: 'sendwell-reports',
    onConnectionError: (err) => logger.warn({ err }, 'database connection lost; the pool opens another'),
  });
  const redis = createRedis(env.REDIS_URL, 'producer');
  redis.on('error', (err) => logger.error({ err }, 'redis (producer) error'));
  const queues = createQueues(redis, env.QUEUE_PREFIX, logger);
  const mailer = createMailer({ smtpUrl: env.SMTP_URL, from: env.MAIL_FROM, outboxDir: env.MAIL_OUTBOX_DIR ?? defaultOutboxDir(), logger: logger.child({ module: 'Mailer' }) });

  const reports = new ReportRepository(db);
  const source = new ReportSourceRepository(db);
  // One rendering thread per report built at once: the PDF is CPU work kept off the API's event loop.
  const pdfPool = new PdfRenderPool(env.REPORT_CONCURRENCY);
  const generator = new ReportGenerator(
    db,
    reports,
    source,
    new ReportBuilder(source, new MailFlowSourceRepository(db), new SenderRequirementsSourceRepository(db, logger.child({ module: 'SenderRequirementsSource' }))),
    (document, options) => pdfPool.render(document, options),
    mailer,
    env.APP_URL,
    logger.child({ module: 'ReportGenerator' }),
  );
  const automated = new AutomatedReports(db, reports, queues, logger.child({ module: 'AutomatedReports' }));

  let worker: Worker | null = null;
  let workerConnection: Redis | null = null;
  return {
    env,
    logger,
    db,
    redis,
    queues,
    mailer,
    services: { reports: new ReportService(reports, source, queues, env.APP_URL, logger.child({ module: 'ReportService' })), generator, automated },
    async startWorker() {
      await keepJobSchedulers(queues.report, reportSchedulers, logger.child({ module: 'scheduler' }));
      if (!env.REPORT_WORKER) return null;
      workerConnection = createRedis(env.REDIS_URL, 'worker');
      workerConnection.on('error', (err) => logger.error({ err }, 'redis (report worker) error'));
      worker = createJobWorker({
        queue: QueueName.Report,
        connection: workerConnection,
        prefix: env.QUEUE_PREFIX,
        concurrency: env.REPORT_CONCURRENCY,
        handlers: reportHandlers(generator, automated),
        logger,
      });
      await worker.waitUntilReady();
      return worker;
    },
    async close() {
      await worker?.close();
      await pdfPool.close();
      await queues.close();
      await Promise.all([redis, ...(workerConnection ? [workerConnection] : [])].map(closeRedis));
      mailer.close();
      await db.destroy();
    },
  };
}
