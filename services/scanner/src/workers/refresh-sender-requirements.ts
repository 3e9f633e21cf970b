import { JobName, refreshSenderRequirementsJobOptions } from '@sendwell/contracts';
import type { Logger, Queues } from '@sendwell/server-kit';

/**
 * Asks the intake to judge a domain's sender requirements again: new evidence (a scan, a test message)
 * is in. One job waits per domain (the options deduplicate). A failure is logged, not thrown: the
 * verdict is also judged when it is read, so a lost refresh only delays an alert.
 */
export async function queueSenderRequirementsRefresh(queues: Queues, domainId: number, log: Logger): Promise<void> {
  try {
    await queues.add(JobName.RefreshSenderRequirements, { domainId }, refreshSenderRequirementsJobOptions(domainId));
  } catch (err) {
    log.warn({ err, domainId }, 'could not queue the sender requirements refresh; it is judged on read');
  }
}
