import { JobName, QueueName, type CheckType } from '@sendwell/contracts';
import { createDb, type Database } from '@sendwell/db';
import { closeRedis, createJobWorker, createQueues, createRedis, SystemCounters, type JobHandlers, type JobWorkerOptions, type Logger, type Queues } from '@sendwell/server-kit';
import { ScanEngine, type ScanRecovery, type Sweeper } from '@sendwell/scan-engine';
import type { Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { BlocklistRegistry } from './blocklists/registry.js';
import { zonesFrom } from './checks/blacklist/plan.js';
import { DEFAULT_DNSBL_DOMAIN_ZONES, DEFAULT_DNSBL_IP_ZONES } from './checks/blacklist/zones.js';
import type { Check, ScanConfig } from './checks/types.js';
import { closeSharedDnsTransport } from './dns/dns-transport.js';
import { closeSharedTimingTransport } from './dns/timing-transport.js';
import { createResolver } from './dns/resolver.js';
import { sharedAnswerCache } from './dns/shared-cache.js';
import { scanConfigFromEnv, type Env } from './env.js';
import { configureTimingGate } from './timing/timing-gate.js';
import { runScan } from './scan/run-scan.js';
import { startScheduler } from './scheduler/scheduler.js';
import { sweepHandler } from './scheduler/sweep.handler.js';
import { DailyReputation } from './scoring/daily-reputation.js';
import { failScan, scanDomainHandler, type ScanFn } from './workers/scan-domain.handler.js';
import { ScanMetrics } from './workers/scan-metrics.js';
import { MxProbeCache } from './checks/shared/mx-probe/probe-cache.js';
import { scanSampleDomainHandler } from './workers/scan-sample-domain.handler.js';
import { analyseMailTestHandler, failMailTest } from './workers/analyse-mail-test.handler.js';
import { analyseMailTest } from './mail-test/analyse-mail-test.js';

export interface DepsOptions {
  /** The check modules; the registry (scan/checks-registry.ts) in production. */
  checks: Record<CheckType, Check>;
  /** Prometheus default metrics (off in tests that build several instances). */
  collectDefaultMetrics?: boolean;
}

export interface Deps {
  env: Env;
  logger: Logger;
  db: Database;
  /** Blocking connection for the Worker (maxRetriesPerRequest: null). */
  workerRedis: Redis;
  /** Connection for the queues this process adds to (scan, notify). */
  queueRedis: Redis;
  queues: Queues;
  config: ScanConfig;
  blocklists: BlocklistRegistry;
  scan: ScanFn;
  engine: ScanEngine;
  sweeper: Sweeper;
  recovery: ScanRecovery;
  dailyReputation: DailyReputation;
  metrics: ScanMetrics;
  /** The administrator's running figures in Redis (scans, their seconds, domains scanned today, alerts raised). */
  counters: SystemCounters;
  handlers: JobHandlers<typeof QueueName.Scan>;
  startWorker(overrides?: Partial<Pick<JobWorkerOptions<typeof QueueName.Scan>, 'lockDuration' | 'stalledInterval' | 'maxStalledCount' | 'autorun' | 'concurrency'>>): Worker;
  startScheduler(): Promise<void>;
  /** Queues, Redis, DNS sockets and the pool; close the Worker (and the HTTP server) first. */
  close(): Promise<void>;
}

/** All wiring of the scanner, in one place. */
export function createDeps(env: Env, logger: Logger, options: DepsOptions): Deps {
  const db = createDb({
    connectionString: env.DATABASE_URL,
    max: env.DATABASE_POOL_MAX,
    applicationName: 'sendwell-scanner',
    onConnectionError: (err) => logger.warn({ err }, 'database connection lost; the pool opens another'),
  });
  const workerRedis = createRedis(env.REDIS_URL, 'worker');
  const queueRedis = createRedis(env.REDIS_URL, 'client');
  workerRedis.on('error', (err) => logger.error({ err }, 'redis (worker) error'));
  queueRedis.on('error', (err) => logger.error({ err }, 'redis (queues) error'));
  const queues = createQueues(queueRedis, env.QUEUE_PREFIX, logger);
  // The registry probes these lists; test messages are read against the same ones (mail-test/).
  const blocklistZones = [...zonesFrom(env.DNSBL_IP_ZONES, DEFAULT_DNSBL_IP_ZONES, 'ip'), ...zonesFrom(env.DNSBL_DOMAIN_ZONES, DEFAULT_DNSBL_DOMAIN_ZONES, 'domain')];
  const blocklists = new BlocklistRegistry({
    redis: queueRedis,
    prefix: env.QUEUE_PREFIX,
    zones: blocklistZones,
    newResolver: () => createResolver({ servers: env.DNS_SERVERS, timeoutMs: env.DNS_TIMEOUT_MS }),
    logger: logger.child({ module: 'BlocklistRegistry' }),
  });
  // One per process, like the shared answer cache: providers' MX hosts are talked to once per TTL, not once per domain.
  const config: ScanConfig = { ...scanConfigFromEnv(env), blocklistHealth: blocklists, mxProbes: new MxProbeCache() };
  configureTimingGate({ limit: env.SCAN_TIMING_PROBES });
  const metrics = new ScanMetrics(options.collectDefaultMetrics ?? true);

  const scan: ScanFn = (domain, dkimSelectors, scanOptions = {}) =>
    runScan(domain, {
      // A resolver per scan: its cache lives exactly as long as the scan (the sockets are shared).
      // Answers that do not depend on the domain (DNSBL lookups, providers' hosts and SPF records) are
      // shared by every scan of the process within their TTL (dns/shared-cache.ts).
      resolver: createResolver({ servers: env.DNS_SERVERS, timeoutMs: env.DNS_TIMEOUT_MS, sharedCache: sharedAnswerCache() }),
      config,
      checks: options.checks,
      dkimSelectors,
      checkDeadlineMs: env.SCAN_CHECK_DEADLINE_MS,
      ...scanOptions,
    });

  // On the queues' connection (a client: an offline queue, one retry), under the queues' prefix; writes are best effort.
  const counters = new SystemCounters(queueRedis, env.QUEUE_PREFIX, { logger: logger.child({ module: 'SystemCounters' }) });
  const engine = new ScanEngine({ db, queues, logger, counters });
  const sweeper = engine.sweeper({ batch: env.SCAN_SWEEP_BATCH, leaseMs: env.SCAN_CLAIM_LEASE_MS }, (queued) => metrics.domainsClaimed.inc(queued));
  const recovery = engine.recovery({ leaseMs: env.SCAN_RECOVERY_LEASE_MS, maxTries: env.SCAN_RECOVERY_TRIES, batch: env.SCAN_SWEEP_BATCH });
  const dailyReputation = new DailyReputation(db, engine, logger.child({ module: 'DailyReputation' }));
  const handlers: JobHandlers<typeof QueueName.Scan> = {
    [JobName.ScanDomain]: scanDomainHandler({ db, engine, scan, metrics, counters }),
    [JobName.ScanSampleDomain]: scanSampleDomainHandler({ db, scan }),
    [JobName.SweepDueDomains]: sweepHandler(sweeper, recovery),
    [JobName.RecalculateReputation]: async () => dailyReputation.run(),
    [JobName.ProbeBlocklists]: async () => {
      await blocklists.probeAll();
    },
    [JobName.AnalyseMailTest]: analyseMailTestHandler({
      db,
      redis: queueRedis,
      queues,
      // A resolver per analysis, like a scan's (its cache lives as long as the analysis).
      analyse: (raw, session) =>
        analyseMailTest(raw, session, {
          resolver: createResolver({ servers: env.DNS_SERVERS, timeoutMs: env.DNS_TIMEOUT_MS, sharedCache: sharedAnswerCache() }),
          blocklists: { zones: blocklistZones, health: blocklists },
          now: new Date(),
        }),
    }),
  };

  return {
    env,
    logger,
    db,
    workerRedis,
    queueRedis,
    queues,
    config,
    blocklists,
    scan,
    engine,
    sweeper,
    recovery,
    dailyReputation,
    metrics,
    counters,
    handlers,
    startWorker: (overrides = {}) =>
      createJobWorker({
        queue: QueueName.Scan,
        connection: workerRedis,
        prefix: env.QUEUE_PREFIX,
        concurrency: env.SCANNER_CONCURRENCY,
        handlers,
        logger,
        lockDuration: env.SCAN_LOCK_DURATION_MS,
        stalledInterval: env.SCAN_STALLED_INTERVAL_MS,
        maxStalledCount: env.SCAN_MAX_STALLED_COUNT,
        onFinalFailure: async (job, error) => {
          await failScan(engine.recorder, counters)(job, error);
          await failMailTest({ db, redis: queueRedis }, logger)(job, error);
        },
        ...overrides,
      }),
    async startScheduler() {
      await startScheduler(queues.scan, env.SCAN_SWEEP_EVERY_MS, env.SCAN_BLOCKLIST_PROBE_EVERY_MS, logger.child({ module: 'scheduler' }));
    },
    async close() {
      blocklists.stop();
      await queues.close();
      await Promise.all([closeRedis(workerRedis), closeRedis(queueRedis)]);
      await Promise.all([closeSharedDnsTransport(), closeSharedTimingTransport()]);
      await db.destroy();
    },
  };
}
