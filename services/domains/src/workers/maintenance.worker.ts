import { JobName, QueueName } from '@sendwell/contracts';
import type { Logger } from '@sendwell/server-kit';
import { UnrecoverableError, Worker, type Job, type Queue } from 'bullmq';
import type { Redis } from 'ioredis';

/**
 * The `maintenance` queue's jobs this service owns (it owns the domains table). `daily-reputation`
 * is on the same queue in the contracts but has no producer: the scanner scores every scan.
 */
export const ownedMaintenanceJobs = [JobName.PurgeDeletedDomains, JobName.ProvisionSignupDomain] as const;
export type OwnedMaintenanceJob = (typeof ownedMaintenanceJobs)[number];

export type MaintenanceHandler = (job: Job, log: Logger) => Promise<unknown>;
/** A Record over the owned names: a missing handler is a compile error, and `assertHandlersComplete` checks again at boot. */
export type MaintenanceHandlers = Record<OwnedMaintenanceJob, MaintenanceHandler>;

export const PURGE_SCHEDULER_ID = 'purge-deleted-domains';
/** 03:00 UTC, after the 02:00 reputation recalculation the spec names (part 2 §9). */
export const PURGE_PATTERN = '0 3 * * *';

export function assertHandlersComplete(handlers: Partial<Record<string, unknown>>): void {
  const missing = ownedMaintenanceJobs.filter((name) => typeof handlers[name] !== 'function');
  if (missing.length > 0) throw new Error(`maintenance worker: no handler for ${missing.join(', ')}`);
}

/** Idempotent at every boot: one scheduler id, so one purge job a day however many processes start. */
export async function scheduleMaintenance(maintenanceQueue: Queue): Promise<void> {
  await maintenanceQueue.upsertJobScheduler(
    PURGE_SCHEDULER_ID,
    { pattern: PURGE_PATTERN, tz: 'UTC' },
    { name: JobName.PurgeDeletedDomains, data: {}, opts: { attempts: 3, removeOnComplete: { count: 30 }, removeOnFail: { count: 30 } } },
  );
}

export interface MaintenanceWorkerOptions {
  connection: Redis;
  prefix: string;
  concurrency: number;
  handlers: MaintenanceHandlers;
  logger: Logger;
  autorun?: boolean;
}

/** One Worker on the maintenance queue, a named processor over the handler registry. */
export function createMaintenanceWorker(options: MaintenanceWorkerOptions): Worker {
  const { handlers, logger } = options;
  assertHandlersComplete(handlers);
  const owned: readonly string[] = ownedMaintenanceJobs;

  const worker = new Worker(
    QueueName.Maintenance,
    async (job: Job) => {
      const log = logger.child({ queue: QueueName.Maintenance, jobName: job.name, jobId: job.id, attempt: job.attemptsMade + 1 });
      if (!owned.includes(job.name)) throw new UnrecoverableError(`unknown job ${job.name}`);
      return handlers[job.name as OwnedMaintenanceJob](job, log);
    },
    { connection: options.connection, prefix: options.prefix, concurrency: options.concurrency, autorun: options.autorun ?? true },
  );
  worker.on('error', (err) => logger.error({ err, queue: QueueName.Maintenance }, 'worker error'));
  worker.on('failed', (job, err) => {
    if (job) logger.warn({ err, queue: QueueName.Maintenance, jobName: job.name, jobId: job.id, attempt: job.attemptsMade }, 'job failed');
  });
  return worker;
}
