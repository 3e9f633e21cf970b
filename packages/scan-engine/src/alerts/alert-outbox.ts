import { JobName, sendAlertJobId, type AlertEvent } from '@sendwell/contracts';
import { SystemCounter, type Logger, type Queues, type SystemCounters } from '@sendwell/server-kit';

export interface AlertEventRef {
  alertId: number;
  event: AlertEvent;
}

/**
 * Hands alert events to the notify queue's fan-out, once each (the job id). Called after the alert
 * rows are committed; when Redis cannot take them now, the notify queue's sweep finds the rows
 * (`notified_at` still null) within a minute, so a failure here is logged, not thrown. The one place
 * raised alerts are counted among the administrator's figures (`counters`, best effort), whoever
 * raised them: a scan, the daily point, the intake's mail-flow and sender-requirement judgements.
 */
export async function queueAlertEvents(queues: Queues, events: readonly AlertEventRef[], logger: Logger, counters?: SystemCounters): Promise<void> {
  if (events.length === 0) return;
  const raised = events.filter((e) => e.event === 'raised').length;
  if (raised > 0) await counters?.add(SystemCounter.AlertsRaised, raised);
  try {
    await queues.addBulk(
      JobName.SendAlert,
      // Removed on final failure so the sweep can queue the same id again.
      events.map((e) => ({ data: e, opts: { jobId: sendAlertJobId(e.alertId, e.event), removeOnFail: true } })),
    );
  } catch (err) {
    logger.warn({ err, alerts: events.length }, 'could not queue alert delivery now; the sweep will');
  }
}

/** The events of alerts just raised and just resolved. */
export function alertEventsOf(raised: readonly number[], resolved: readonly number[]): AlertEventRef[] {
  return [...raised.map((alertId) => ({ alertId, event: 'raised' as const })), ...resolved.map((alertId) => ({ alertId, event: 'resolved' as const }))];
}
