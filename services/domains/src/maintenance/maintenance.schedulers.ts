import { JobName } from '@sendwell/contracts';
import { keepJobSchedulers, type JobSchedulerSpec, type Logger } from '@sendwell/server-kit';
import type { Queue } from 'bullmq';

export const PURGE_SCHEDULER_ID = 'purge-deleted-domains';
/** 03:00 UTC, after the 02:00 reputation recalculation the spec names (part 2 §9). */
export const PURGE_PATTERN = '0 3 * * *';
export const CLEAN_UP_SCHEDULER_ID = 'nightly-clean-up';
/** 03:30 UTC, after the purge of deleted domains, so the two never compete for the database. */
export const CLEAN_UP_PATTERN = '30 3 * * *';

export const HISTORY_SCHEDULER_ID = 'maintain-history';
/** 03:45 UTC, after the clean-up: months created ahead, expired months dropped. */
export const HISTORY_PATTERN = '45 3 * * *';

const nightlyJobOptions = { attempts: 3, removeOnComplete: { count: 30 }, removeOnFail: { count: 30 } };

export const maintenanceSchedulers: JobSchedulerSpec[] = [
  { id: PURGE_SCHEDULER_ID, repeat: { pattern: PURGE_PATTERN, tz: 'UTC' }, template: { name: JobName.PurgeDeletedDomains, data: {}, opts: nightlyJobOptions } },
  { id: CLEAN_UP_SCHEDULER_ID, repeat: { pattern: CLEAN_UP_PATTERN, tz: 'UTC' }, template: { name: JobName.NightlyCleanUp, data: {}, opts: nightlyJobOptions } },
  { id: HISTORY_SCHEDULER_ID, repeat: { pattern: HISTORY_PATTERN, tz: 'UTC' }, template: { name: JobName.MaintainHistory, data: {}, opts: nightlyJobOptions } },
];

/**
 * Idempotent at every boot: one scheduler id per job, so one run a day however many processes start.
 * Kept registered after Redis loses them (keepJobSchedulers), not only at boot.
 */
export async function scheduleMaintenance(maintenanceQueue: Queue, logger: Logger): Promise<void> {
  await keepJobSchedulers(maintenanceQueue, maintenanceSchedulers, logger);
}
