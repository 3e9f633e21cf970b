import { defaultJobOptions, jobPayloads, jobQueue, QueueName, type JobName, type JobPayload } from '@sendwell/contracts';
import { Queue, type JobsOptions } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Logger } from './logger.js';

export type Queues = Record<QueueName, Queue> & {
  /** Adds a job to its queue after checking its payload against the contracts. */
  add<N extends JobName>(name: N, data: JobPayload<N>, opts?: JobsOptions): ReturnType<Queue['add']>;
  close(): Promise<void>;
};

/** The four queues of the architecture, sharing one producer connection and one key prefix. */
export function createQueues(connection: Redis, prefix: string, logger: Logger): Queues {
  const make = (name: QueueName) => {
    const queue = new Queue(name, { connection, prefix, defaultJobOptions });
    queue.on('error', (err) => logger.error({ err, queue: name }, 'queue error'));
    return queue;
  };
  const queues = {
    [QueueName.Scan]: make(QueueName.Scan),
    [QueueName.Notify]: make(QueueName.Notify),
    [QueueName.Report]: make(QueueName.Report),
    [QueueName.Maintenance]: make(QueueName.Maintenance),
  };
  return {
    ...queues,
    async add(name, data, opts) {
      const payload = jobPayloads[name].parse(data);
      return queues[jobQueue[name]].add(name, payload, opts);
    },
    async close() {
      await Promise.all(Object.values(queues).map((q) => q.close()));
    },
  };
}
