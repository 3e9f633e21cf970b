import { JobName, type QueueName } from '@sendwell/contracts';
import { isFinalFailure, type JobHandlers } from '@sendwell/server-kit';
import { UnrecoverableError } from 'bullmq';
import type { DigestService } from './digest.service.js';
import type { NotifyService } from './notify.service.js';

/** The notify queue's handlers (this service owns alerts' delivery, integrations and preferences). */
export function notifyHandlers(notify: NotifyService, digests: DigestService): JobHandlers<typeof QueueName.Notify> {
  return {
    [JobName.SendAlert]: async ({ alertId, event }) => notify.fanOut(alertId, event),
    [JobName.DeliverAlert]: async ({ alertId, event, channel }, job, log) => {
      const final = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
      const outcome = await notify.deliver(alertId, event, channel, final);
      if ('error' in outcome) {
        const error = outcome.permanent ? new UnrecoverableError(outcome.error) : new Error(outcome.error);
        log.info({ alertId, event, channel, permanent: outcome.permanent, final: isFinalFailure(job, error) || outcome.permanent }, 'alert delivery failed');
        throw error;
      }
      return outcome;
    },
    [JobName.SweepUnsentAlerts]: async () => notify.sweep(),
    [JobName.SendAlertDigests]: async () => digests.run(),
  };
}
