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

export const DAILY_REPUTATION_SCHEDULER_ID = 'daily-reputation';
/** 02:00 UTC, the hour part 2 §9 names ("Recalculated daily at 2:00 AM"). */
export const DAILY_REPUTATION_PATTERN = '0 2 * * *';

export const dailyReputationScheduler: JobSchedulerSpec = {
  id: DAILY_REPUTATION_SCHEDULER_ID,
  repeat: { pattern: DAILY_REPUTATION_PATTERN, tz: 'UTC' },
  template: { name: JobName.RecalculateReputation, data: {}, opts: { attempts: 3, removeOnComplete: { count: 30 }, removeOnFail: { count: 30 } } },
};

export const BLOCKLIST_PROBE_SCHEDULER_ID = 'blocklist-probe';

/** The block lists' self-test; a probe round is a few queries per list, and a lost one is simply the next. */
export function blocklistProbeScheduler(everyMs: number): JobSchedulerSpec {
  return {
    id: BLOCKLIST_PROBE_SCHEDULER_ID,
    repeat: { every: everyMs },
    template: { name: JobName.ProbeBlocklists, data: {}, opts: { attempts: 1, removeOnComplete: true, removeOnFail: { count: 20 } } },
  };
}

/**
 * Registers the sweeper's, the daily reputation's and the block list probe's job schedulers on the scan queue, and again whenever Redis lost it
 * (keepJobSchedulers). Idempotent in every scanner process: one scheduler id, so however many
 * processes start, one sweep job is produced per interval.
 */
export async function startScheduler(scanQueue: Queue, everyMs: number, probeEveryMs: number, logger: Logger): Promise<void> {
  await keepJobSchedulers(scanQueue, [sweeperScheduler(everyMs), dailyReputationScheduler, blocklistProbeScheduler(probeEveryMs)], logger);
}
