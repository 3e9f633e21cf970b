import { defaultJobOptions, jobPayloads, jobQueue, QueueName, type JobName, type JobPayload } from '@sendwell/contracts';
import { Queue, type JobSchedulerTemplateOptions, type JobsOptions, type RepeatOptions } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Logger } from './logger.js';
import { warnUnlessNoEviction } from './redis.js';

export type Queues = Record<QueueName, Queue> & {
  /**
   * Adds a job to its queue after checking its payload against the contracts. Fails after
   * QUEUE_ADD_TIMEOUT_MS: BullMQ waits for its connection to be ready without a limit of its own, and
   * a request or a job must not wait with it (a Redis that does not answer means 503 to a caller).
   */
  add<N extends JobName>(name: N, data: JobPayload<N>, opts?: JobsOptions): ReturnType<Queue['add']>;
  /** Many jobs of one name in one round trip, each checked like `add`'s. */
  addBulk<N extends JobName>(name: N, jobs: ReadonlyArray<{ data: JobPayload<N>; opts?: JobsOptions }>): Promise<void>;
  close(): Promise<void>;
};

/** How long `Queues.add` waits for Redis before it fails. */
export const QUEUE_ADD_TIMEOUT_MS = 3_000;

/** The promise's answer, or a rejection after `ms`. */
export async function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`queue did not answer within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** How long closing waits for a queue still starting (a Redis that never answers must not hold a shutdown). */
const CLOSE_SETTLE_MS = 2_000;

/**
 * The queues of the architecture, sharing one producer connection and one key prefix. Warns
 * once at start when that Redis may evict keys (queued jobs would vanish).
 */
export function createQueues(connection: Redis, prefix: string, logger: Logger, addTimeoutMs = QUEUE_ADD_TIMEOUT_MS): Queues {
  void warnUnlessNoEviction(connection, logger);
  const make = (name: QueueName) => {
    const queue = new Queue(name, { connection, prefix, defaultJobOptions });
    queue.on('error', (err) => logger.error({ err, queue: name }, 'queue error'));
    return queue;
  };
  const queues = {
    [QueueName.Scan]: make(QueueName.Scan),
    [QueueName.Maintenance]: make(QueueName.Maintenance),
    [QueueName.Notify]: make(QueueName.Notify),
    [QueueName.Report]: make(QueueName.Report),
    [QueueName.Intake]: make(QueueName.Intake),
  };
  return {
    ...queues,
    async add(name, data, opts) {
      const payload = jobPayloads[name].parse(data);
      return withTimeout(queues[jobQueue[name]].add(name, payload, opts), addTimeoutMs);
    },
    async addBulk(name, jobs) {
      if (jobs.length === 0) return;
      const bulk = jobs.map((j) => ({ name, data: jobPayloads[name].parse(j.data), opts: j.opts }));
      await withTimeout(queues[jobQueue[name]].addBulk(bulk), addTimeoutMs);
    },
    async close() {
      // A queue still starting has commands in flight on the shared connection (its Redis version
      // check): closing under them rejects them where nobody listens. Let them finish, within bounds.
      await Promise.allSettled(Object.values(queues).map((q) => withTimeout(q.waitUntilReady(), CLOSE_SETTLE_MS)));
      await Promise.all(Object.values(queues).map((q) => q.close()));
    },
  };
}

/** A BullMQ job scheduler as `upsertJobScheduler` takes it. */
export interface JobSchedulerSpec {
  id: string;
  repeat: Omit<RepeatOptions, 'key'>;
  template: { name: string; data?: unknown; opts?: JobSchedulerTemplateOptions };
}

/** How often a process checks that its schedulers still exist in Redis. */
export const SCHEDULER_CHECK_EVERY_MS = 10_000;

/**
 * Registers job schedulers and keeps them registered: they live only in Redis, so a Redis that lost
 * its data (no persistence, a failover, FLUSHALL) would otherwise run no scheduled job until a process
 * restarts. They are registered now, again on every reconnection (the connection's `ready`), and any
 * found missing by the periodic check is registered again. `upsertJobScheduler` is idempotent and one
 * id is one scheduler, so every process of a service may do this at once. Stops when the queue closes.
 */
export async function keepJobSchedulers(queue: Queue, schedulers: JobSchedulerSpec[], logger: Logger, checkEveryMs = SCHEDULER_CHECK_EVERY_MS): Promise<void> {
  const upsert = (s: JobSchedulerSpec) => queue.upsertJobScheduler(s.id, s.repeat, s.template);
  for (const s of schedulers) await upsert(s);

  const client = await queue.client;
  let busy = false;
  const guarded = (what: string, work: () => Promise<void>) => {
    if (queue.closing || busy) return;
    busy = true;
    work()
      .catch((err: unknown) => logger.error({ err, queue: queue.name }, `could not ${what} job schedulers`))
      .finally(() => (busy = false));
  };
  const onReady = () =>
    guarded('register', async () => {
      for (const s of schedulers) await upsert(s);
      logger.info({ queue: queue.name, schedulers: schedulers.map((s) => s.id) }, 'job schedulers registered again after a reconnection');
    });
  const timer = setInterval(() => {
    if (queue.closing) {
      clearInterval(timer);
      client.off('ready', onReady);
      return;
    }
    guarded('check', async () => {
      for (const s of schedulers) {
        if (await queue.getJobScheduler(s.id)) continue;
        await upsert(s);
        logger.warn({ queue: queue.name, scheduler: s.id }, 'job scheduler missing from Redis (data lost?): registered again');
      }
    });
  }, checkEveryMs);
  timer.unref();
  client.on('ready', onReady);
}
