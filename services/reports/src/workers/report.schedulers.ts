import { AUTOMATED_REPORTS_MINUTE, JobName } from '@sendwell/contracts';
import type { JobSchedulerSpec } from '@sendwell/server-kit';

export const AUTOMATED_REPORTS_SCHEDULER_ID = 'schedule-automated-reports';

/** Hourly: a period's reports are made within the hour it starts, and lost jobs are re-queued. */
export const reportSchedulers: JobSchedulerSpec[] = [
  {
    id: AUTOMATED_REPORTS_SCHEDULER_ID,
    repeat: { pattern: `${AUTOMATED_REPORTS_MINUTE} * * * *`, tz: 'UTC' },
    template: { name: JobName.ScheduleAutomatedReports, data: {}, opts: { attempts: 3, removeOnComplete: { count: 48 }, removeOnFail: { count: 48 } } },
  },
];
