import type { JobName } from '@sendwell/contracts';
import type { Logger } from '@sendwell/server-kit';
import type { Job } from 'bullmq';

/** One job kind's processor; `log` is the job's child logger `{ queue, jobName, jobId, attempt }`. */
export type JobHandler = (job: Job, log: Logger) => Promise<unknown>;
export type JobHandlers = Partial<Record<JobName, JobHandler>>;

/** True when this attempt is the job's last: a failure now is final. */
export function isFinalAttempt(job: Job): boolean {
  return job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
}
