import { jobQueue, QueueName, type JobName } from '@sendwell/contracts';
import type { Logger } from '@sendwell/server-kit';
import { UnrecoverableError, Worker, type Job, type WorkerOptions } from 'bullmq';
import type { Redis } from 'ioredis';
import type { JobHandler, JobHandlers } from './job-handler.js';

/** Every job the scan queue carries, from the contracts: the registry must handle each of them. */
export const scanQueueJobs = (Object.keys(jobQueue) as JobName[]).filter((name) => jobQueue[name] === QueueName.Scan);

/** Refuses to start with a job kind of the scan queue left without a handler (immich's registry check). */
export function assertHandlersComplete(handlers: JobHandlers): void {
  const missing = scanQueueJobs.filter((name) => typeof handlers[name] !== 'function');
  if (missing.length > 0) throw new Error(`scan worker: no handler for ${missing.join(', ')}`);
}

export interface ScanWorkerOptions {
  connection: Redis;
  prefix: string;
  concurrency: number;
  handlers: JobHandlers;
  logger: Logger;
  /** Called when a job fails for good (final attempt, unrecoverable, or stalled too often). */
  onFinalFailure?: (job: Job, error: Error) => Promise<void>;
  /** Lock and stalled-check settings; BullMQ's defaults (30 s) in production, short in tests. */
  lockDuration?: number;
  stalledInterval?: number;
  maxStalledCount?: number;
  /** Start without fetching (tests call `worker.run()` themselves); default true. */
  autorun?: boolean;
}

/** One Worker on the scan queue, a named processor dispatching to the handler registry. */
export function createScanWorker(options: ScanWorkerOptions): Worker {
  const { handlers, logger } = options;
  assertHandlersComplete(handlers);

  const processor = async (job: Job) => {
    const log = logger.child({ queue: QueueName.Scan, jobName: job.name, jobId: job.id, attempt: job.attemptsMade + 1 });
    const handler: JobHandler | undefined = handlers[job.name as JobName];
    // A job from a newer deploy that this process does not know: never retried here.
    if (!handler || !scanQueueJobs.includes(job.name as JobName)) throw new UnrecoverableError(`unknown job ${job.name}`);
    return handler(job, log);
  };

  const workerOptions: WorkerOptions = {
    connection: options.connection,
    prefix: options.prefix,
    concurrency: options.concurrency,
    autorun: options.autorun ?? true,
    ...(options.lockDuration ? { lockDuration: options.lockDuration } : {}),
    ...(options.stalledInterval ? { stalledInterval: options.stalledInterval } : {}),
    ...(options.maxStalledCount !== undefined ? { maxStalledCount: options.maxStalledCount } : {}),
  };
  const worker = new Worker(QueueName.Scan, processor, workerOptions);

  worker.on('error', (err) => logger.error({ err, queue: QueueName.Scan }, 'worker error'));
  worker.on('failed', (job, err) => {
    if (!job) return;
    const final = err instanceof UnrecoverableError || err.name === 'UnrecoverableError' || job.attemptsMade >= (job.opts.attempts ?? 1) || /stalled/i.test(err.message);
    logger[final ? 'error' : 'warn']({ err, queue: QueueName.Scan, jobName: job.name, jobId: job.id, attempt: job.attemptsMade, final }, 'job failed');
    if (final && options.onFinalFailure) {
      options.onFinalFailure(job, err).catch((e: unknown) => logger.error({ err: e, jobId: job.id }, 'could not record final failure'));
    }
  });
  return worker;
}

