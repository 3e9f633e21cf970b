import { JobName } from '@sendwell/contracts';
import { keepJobSchedulers, type JobSchedulerSpec, type Logger } from '@sendwell/server-kit';
import type { Queue } from 'bullmq';

export const SWEEPER_SCHEDULER_ID = 'scan-sweeper';

export function sweeperScheduler(everyMs: number): JobSchedulerSpec {
  return {
    id: SWEEPER_SCHEDULER_ID,
    repeat: { every: everyMs },
    // A sweep is cheap and the next comes soon: one attempt, nothing kept but recent failures.
    template: { name: JobName.SweepDueDomains, data: {}, opts: { attempts: 1, removeOnComplete: true, removeOnFail: { count: 50 } } },
  };
}

/**
 * Registers the sweeper's job scheduler on the scan queue, and again whenever Redis lost it
 * (keepJobSchedulers). Idempotent in every scanner process: one scheduler id, so however many
 * processes start, one sweep job is produced per interval.
 */
export async function startScheduler(scanQueue: Queue, everyMs: number, logger: Logger): Promise<void> {
  await keepJobSchedulers(scanQueue, [sweeperScheduler(everyMs)], logger);
}
