import { JobName, refreshSenderRequirementsJobOptions } from '@sendwell/contracts';
import type { Logger, Queues } from '@sendwell/server-kit';

/**
 * Asks the intake to judge a domain's sender requirements again: new evidence is in (a scan, a test
 * message, an aggregate report). One job waits per domain (the options deduplicate). The evidence is
 * already stored and reading the verdict judges it too, so a Redis that cannot take the job now is
 * logged, not thrown: a lost refresh only delays an alert.
 */
export async function queueSenderRequirementsRefresh(queues: Queues, domainId: number, log: Logger): Promise<void> {
  try {
    await queues.add(JobName.RefreshSenderRequirements, { domainId }, refreshSenderRequirementsJobOptions(domainId));
  } catch (err) {
    log.warn({ err, domainId }, 'could not queue the sender requirements refresh; it is judged on read');
  }
}
