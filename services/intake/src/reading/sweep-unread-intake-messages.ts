import { JobName, readIntakeMessageJobId } from '@sendwell/contracts';
import type { Queues } from '@sendwell/server-kit';
import type { IntakeMessageRepository } from '../intake/intake-message.repository.js';
import { freeFinishedJobId } from '../workers/free-finished-job-id.js';

/** A message unread this long has lost its job (Redis restarted, `add` failed) or its job gave up. */
export const UNREAD_AFTER_MS = 2 * 60_000;
const SWEEP_BATCH = 500;

/** Queues the reading of messages still unread, under the message's job id (freeFinishedJobId). */
export async function sweepUnreadIntakeMessages(deps: { messages: IntakeMessageRepository; queues: Queues }): Promise<{ queued: number }> {
  const ids = await deps.messages.unreadSince(UNREAD_AFTER_MS, SWEEP_BATCH);
  let queued = 0;
  for (const id of ids) {
    const jobId = readIntakeMessageJobId(id);
    if (!(await freeFinishedJobId(deps.queues.intake, jobId))) continue;
    await deps.queues.add(JobName.ReadIntakeMessage, { messageId: id }, { jobId });
    queued += 1;
  }
  return { queued };
}
