import { ScanEngine } from '@sendwell/scan-engine';
import { readFileSync } from 'node:fs';
import { createDb, type Database } from '@sendwell/db';
import { QueueName } from '@sendwell/contracts';
import {
  closeRedis,
  createJobWorker,
  createMailer,
  createQueues,
  createRedis,
  defaultOutboxDir,
  keepJobSchedulers,
  OutboundHttp,
  SystemCounters,
  type Logger,
  type Mailer,
  type Queues,
} from '@sendwell/server-kit';
import type { Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { EmailVerifier } from './email-verify/email-verifier.js';
import { emailVerifierConfig } from './email-verify/email-verify.env.js';
import { createDnsResolver } from './email-verify/mail-hosts.js';
import { MarketingSync } from './integrations/marketing-sync.js';
import { MarketingVerifier } from './integrations/marketing-verifier.js';
import { ChannelTargets } from './notify/channel-targets.js';
import { ChannelSender } from './notify/channels/channel-sender.js';
import { DigestService } from './notify/digest.service.js';
import { notifyHandlers } from './notify/notify.handlers.js';
import { notifySchedulers } from './notify/notify.schedulers.js';
import { NotifyService } from './notify/notify.service.js';
import { SecretBox } from './notify/secret-box.js';
import { integrationKeys } from './notify/notify.env.js';
import { FixedWindowRepository } from './shared/fixed-window.repository.js';
import type { Env } from './env.js';
import { AlertService } from './alerts/alert.service.js';
import { CheckService } from './results/check.service.js';
import { CleanUpService } from './maintenance/clean-up.service.js';
import { HistoryMaintenanceService } from './maintenance/history-maintenance.service.js';
import { DomainService } from './domains/domain.service.js';
import { EmailVerifyService } from './email-verify/email-verify.service.js';
import { SystemStatsService } from './stats/system-stats.service.js';
import { IntegrationService } from './integrations/integration.service.js';
import { NotificationPreferencesService } from './alerts/notification-preferences.service.js';
import { WebhookService } from './integrations/webhook.service.js';
import { SampleDomainService } from './quick-check/sample-domain.service.js';
import { ScanService } from './scans/scan.service.js';
import { maintenanceHandlers } from './maintenance/maintenance.handlers.js';
import { scheduleMaintenance } from './maintenance/maintenance.schedulers.js';

export interface Deps {
  env: Env;
  logger: Logger;
  db: Database;
  /** Producer connection (no offline queue: a down Redis fails an HTTP call fast, 503). */
  redis: Redis;
  queues: Queues;
  /** The administrator's running figures in Redis (written by the scanner, the engine and notify; read by the system statistics). */
  counters: SystemCounters;
  services: {
    domains: DomainService;
    scans: ScanService;
    checks: CheckService;
    alerts: AlertService;
    sampleDomains: SampleDomainService;
    emailVerify: EmailVerifyService;
    systemStats: SystemStatsService;
    preferences: NotificationPreferencesService;
    integrations: IntegrationService;
    webhooks: WebhookService;
    notify: NotifyService;
    digests: DigestService;
  };
  mailer: Mailer;
  /** Registers the daily purge and starts the maintenance Worker (when MAINTENANCE_WORKER is on). */
  startMaintenance(): Promise<Worker | null>;
  /** Registers the alert sweep and digest schedulers and starts the notify Worker (when NOTIFY_WORKER is on). */
  startNotify(): Promise<Worker | null>;
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
  // The administrator's running figures, shared with the scanner (same Redis, same prefix): notify
  // counts the deliveries it sends, the system statistics read them all.
  const counters = new SystemCounters(redis, env.QUEUE_PREFIX, { logger: logger.child({ module: 'SystemCounters' }) });

  const engine = new ScanEngine({ db, queues, logger: logger.child({ module: 'ScanEngine' }) });
  const scans = new ScanService(db, engine, logger.child({ module: 'ScanService' }));
  const history = new HistoryMaintenanceService(engine.historyPartitions(), counters, logger.child({ module: 'HistoryMaintenance' }));
  const domains = new DomainService(db, scans, logger.child({ module: 'DomainService' }));
  const checks = new CheckService(db, domains);
  // Alerts, quick check and email verification (the other engineer's part).
  const verify = emailVerifierConfig(env);
  const emailVerifier = new EmailVerifier(createDnsResolver(verify.dns), verify.verifier, logger.child({ module: 'EmailVerifier' }));

  // Alert delivery and integrations: one guarded HTTP client for every outbound call to user-given URLs.
  const box = new SecretBox(integrationKeys(env));
  const http = new OutboundHttp({
    policy: { allowLoopback: env.ALLOW_LOOPBACK_TARGETS },
    timeoutMs: env.NOTIFY_TIMEOUT_MS,
    httpsOnly: env.NODE_ENV === 'production',
    ...(env.OUTBOUND_EXTRA_CA_FILE ? { extraCa: readFileSync(env.OUTBOUND_EXTRA_CA_FILE, 'utf8') } : {}),
  });
  const mailer = createMailer({ smtpUrl: env.SMTP_URL, from: env.MAIL_FROM, outboxDir: env.MAIL_OUTBOX_DIR ?? defaultOutboxDir(), logger: logger.child({ module: 'Mailer' }) });
  const marketingOrigins = {
    mailchimp: env.MAILCHIMP_API_URL,
    sendgrid: env.SENDGRID_API_URL,
    hubspot: env.HUBSPOT_API_URL,
    constantContact: env.CONSTANT_CONTACT_API_URL,
  };
  const sender = new ChannelSender(
    http,
    mailer,
    { slack: env.SLACK_API_URL, discord: env.DISCORD_API_URL, pagerduty: env.PAGERDUTY_EVENTS_URL },
    new MarketingSync(http, marketingOrigins),
  );
  const targets = new ChannelTargets(db, box);
  const marketing = new MarketingVerifier(http, marketingOrigins);
  const notify = new NotifyService({ db, queues, targets, sender, appUrl: env.APP_URL, logger: logger.child({ module: 'NotifyService' }), retryBaseMs: env.NOTIFY_RETRY_BASE_MS, counters });
  const digests = new DigestService(db, mailer, env.APP_URL, logger.child({ module: 'DigestService' }), counters);

  const workers: Worker[] = [];
  const workerConnections: Redis[] = [];
  const startWorker = async <Q extends typeof QueueName.Maintenance | typeof QueueName.Notify>(
    queue: Q,
    concurrency: number,
    handlers: Parameters<typeof createJobWorker<Q>>[0]['handlers'],
    timings: { lockDuration?: number; stalledInterval?: number } = {},
  ): Promise<Worker> => {
    const connection = createRedis(env.REDIS_URL, 'worker');
    connection.on('error', (err) => logger.error({ err }, `redis (${queue} worker) error`));
    workerConnections.push(connection);
    const worker = createJobWorker({ queue, connection, prefix: env.QUEUE_PREFIX, concurrency, handlers, logger, ...timings });
    workers.push(worker);
    // Ready before it is handed out, so a quick close never races the worker's own start-up commands.
    await worker.waitUntilReady();
    return worker;
  };

  return {
    env,
    logger,
    db,
    redis,
    queues,
    counters,
    services: {
      domains,
      scans,
      checks,
      alerts: new AlertService(db),
      sampleDomains: new SampleDomainService(db, queues, new FixedWindowRepository(redis, env.QUEUE_PREFIX), logger.child({ module: 'SampleDomainService' }), {
        newPerMinute: env.SAMPLE_DOMAINS_PER_MINUTE,
      }),
      emailVerify: new EmailVerifyService(emailVerifier, new FixedWindowRepository(redis, env.QUEUE_PREFIX), verify.rateLimit),
      systemStats: new SystemStatsService(db, queues, counters, history),
      preferences: new NotificationPreferencesService(db),
      integrations: new IntegrationService(db, box, targets, sender, marketing, http, env.APP_URL),
      webhooks: new WebhookService(db, box, sender, http, env.APP_URL),
      notify,
      digests,
    },
    mailer,
    async startMaintenance() {
      // The current month's history partitions and those ahead exist before any scan is written, even
      // after the nightly job missed its runs (a stopped installation started again).
      await engine.historyPartitions().ensureMonths();
      await scheduleMaintenance(queues.maintenance, logger.child({ module: 'scheduler' }));
      if (!env.MAINTENANCE_WORKER) return null;
      return startWorker(QueueName.Maintenance, env.MAINTENANCE_CONCURRENCY, maintenanceHandlers(domains, new CleanUpService(db, logger.child({ module: 'CleanUpService' })), history));
    },
    async startNotify() {
      await keepJobSchedulers(queues.notify, notifySchedulers, logger.child({ module: 'scheduler' }));
      if (!env.NOTIFY_WORKER) return null;
      return startWorker(QueueName.Notify, env.NOTIFY_CONCURRENCY, notifyHandlers(notify, digests), {
        lockDuration: env.NOTIFY_LOCK_DURATION_MS,
        stalledInterval: env.NOTIFY_STALLED_INTERVAL_MS,
      });
    },
    async close() {
      await Promise.all(workers.splice(0).map((w) => w.close()));
      await queues.close();
      await Promise.all([redis, ...workerConnections.splice(0)].map(closeRedis));
      await http.close();
      mailer.close();
      await db.destroy();
    },
  };
}
