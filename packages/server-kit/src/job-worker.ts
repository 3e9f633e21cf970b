import { jobPayloads, jobsOfQueue, type JobName, type JobPayload, type QueueJob, type QueueName } from '@sendwell/contracts';
import { UnrecoverableError, Worker, type Job, type WorkerOptions } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Logger } from './logger.js';

/** One job kind's processor: its payload already checked; `log` is the job's child logger `{ queue, jobName, jobId, attempt }`. */
export type JobHandler<N extends JobName> = (data: JobPayload<N>, job: Job, log: Logger) => Promise<unknown>;

/** A handler for every job of the queue: a missing one is a compile error, and checked again at start. */
export type JobHandlers<Q extends QueueName> = { [N in QueueJob<Q>]: JobHandler<N> };

export interface JobWorkerOptions<Q extends QueueName> {
  queue: Q;
  handlers: JobHandlers<Q>;
  connection: Redis;
  prefix: string;
  concurrency: number;
  logger: Logger;
  /** Called once when a job fails for good (last attempt, unrecoverable, or stalled too often). */
  onFinalFailure?: (job: Job, error: Error) => Promise<void>;
  lockDuration?: number;
  stalledInterval?: number;
  maxStalledCount?: number;
  /** Start without fetching (tests call `worker.run()` themselves); default true. */
  autorun?: boolean;
}

/** Refuses to start with a job of the queue left without a handler. */
export function assertHandlersComplete(queue: QueueName, handlers: Partial<Record<string, unknown>>): void {
  const missing = jobsOfQueue(queue).filter((name) => typeof handlers[name] !== 'function');
  if (missing.length > 0) throw new Error(`${queue} worker: no handler for ${missing.join(', ')}`);
}

/**
 * True when this failure is the job's last: BullMQ will not retry it. Unrecoverable errors include
 * BullMQ's own for a job that stalled more than maxStalledCount times.
 */
export function isFinalFailure(job: Job, error: Error): boolean {
  return error instanceof UnrecoverableError || error.name === 'UnrecoverableError' || job.attemptsMade >= (job.opts.attempts ?? 1) || /stalled/i.test(error.message);
}

/** The payload checked against its contract once, before any handler sees it; a bad one is never retried. */
function parsePayload<N extends JobName>(name: N, data: unknown): JobPayload<N> {
  const parsed = jobPayloads[name].safeParse(data ?? {});
  if (!parsed.success) throw new UnrecoverableError(`invalid ${name} payload: ${parsed.error.issues.map((i) => i.path.join('.') || '(root)').join(', ')}`);
  return parsed.data as JobPayload<N>;
}

/**
 * The one BullMQ Worker factory: a named processor dispatching each job of `queue` to its handler
 * with a checked payload, one place for logging, the `error`/`failed` listeners and the final-failure hook.
 */
export function createJobWorker<Q extends QueueName>(options: JobWorkerOptions<Q>): Worker {
  const { queue, logger } = options;
  assertHandlersComplete(queue, options.handlers);
  const handlers = options.handlers as Partial<Record<string, JobHandler<JobName>>>;
  const known: readonly string[] = jobsOfQueue(queue);

  const processor = async (job: Job) => {
    const log = logger.child({ queue, jobName: job.name, jobId: job.id, attempt: job.attemptsMade + 1 });
    const handler = handlers[job.name];
    // A job from a newer deploy that this process does not know: never retried here.
    if (!handler || !known.includes(job.name)) throw new UnrecoverableError(`unknown job ${job.name}`);
    return handler(parsePayload(job.name as JobName, job.data), job, log);
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
  const worker = new Worker(queue, processor, workerOptions);

  worker.on('error', (err) => logger.error({ err, queue }, 'worker error'));
  worker.on('failed', (job, err) => {
    if (!job) return;
    const final = isFinalFailure(job, err);
    logger[final ? 'error' : 'warn']({ err, queue, jobName: job.name, jobId: job.id, attempt: job.attemptsMade, final }, 'job failed');
    if (final && options.onFinalFailure) {
      options.onFinalFailure(job, err).catch((e: unknown) => logger.error({ err: e, queue, jobId: job.id }, 'could not record final failure'));
    }
  });
  return worker;
}
