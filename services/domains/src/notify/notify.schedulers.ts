import { ALERT_DIGEST_HOUR_UTC, JobName } from '@sendwell/contracts';
import type { JobSchedulerSpec } from '@sendwell/server-kit';

export const ALERT_SWEEP_SCHEDULER_ID = 'sweep-unsent-alerts';
export const ALERT_DIGEST_SCHEDULER_ID = 'send-alert-digests';

export const notifySchedulers: JobSchedulerSpec[] = [
  {
    id: ALERT_SWEEP_SCHEDULER_ID,
    repeat: { every: 60_000 },
    template: { name: JobName.SweepUnsentAlerts, data: {}, opts: { attempts: 1, removeOnComplete: true, removeOnFail: { count: 50 } } },
  },
  {
    id: ALERT_DIGEST_SCHEDULER_ID,
    repeat: { pattern: `0 ${ALERT_DIGEST_HOUR_UTC} * * *`, tz: 'UTC' },
    template: { name: JobName.SendAlertDigests, data: {}, opts: { attempts: 3, removeOnComplete: { count: 30 }, removeOnFail: { count: 30 } } },
  },
];
