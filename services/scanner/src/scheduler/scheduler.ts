import { JobName } from '@sendwell/contracts';
import type { Queue } from 'bullmq';

export const SWEEPER_SCHEDULER_ID = 'scan-sweeper';

/**
 * Registers the sweeper's job scheduler on the scan queue. Idempotent at every boot of every scanner
 * process: one scheduler id, so however many processes start, one sweep job is produced per interval.
 */
export async function startScheduler(scanQueue: Queue, everyMs: number): Promise<void> {
  await scanQueue.upsertJobScheduler(
    SWEEPER_SCHEDULER_ID,
    { every: everyMs },
    {
      name: JobName.SweepDueDomains,
      data: {},
      // A sweep is cheap and the next comes soon: one attempt, nothing kept but recent failures.
      opts: { attempts: 1, removeOnComplete: true, removeOnFail: { count: 50 } },
    },
  );
}
