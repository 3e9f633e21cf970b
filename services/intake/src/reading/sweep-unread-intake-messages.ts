import { JobName, readIntakeMessageJobId } from '@sendwell/contracts';
import type { Queues } from '@sendwell/server-kit';
import type { IntakeMessageRepository } from '../intake/intake-message.repository.js';

/** A message unread this long has lost its job (Redis restarted, `add` failed) or its job gave up. */
export const UNREAD_AFTER_MS = 2 * 60_000;
const SWEEP_BATCH = 500;

/**
 * Queues the reading of messages still unread. The job id is the message's, so a job still waiting or
 * running makes the add a no-op; a job that finished without reading the message (it failed for good,
 * or stalled past its limit) still holds that id for a day, so it is removed first.
 */
export async function sweepUnreadIntakeMessages(deps: { messages: IntakeMessageRepository; queues: Queues }): Promise<{ queued: number }> {
  const ids = await deps.messages.unreadSince(UNREAD_AFTER_MS, SWEEP_BATCH);
  let queued = 0;
  for (const id of ids) {
    const jobId = readIntakeMessageJobId(id);
    const existing = await deps.queues.intake.getJob(jobId);
    if (existing) {
      const state = await existing.getState();
      if (state !== 'completed' && state !== 'failed') continue;
      // A job being picked up again at this moment is locked and cannot be removed: leave it be.
      const removed = await existing.remove().then(
        () => true,
        () => false,
      );
      if (!removed) continue;
    }
    await deps.queues.add(JobName.ReadIntakeMessage, { messageId: id }, { jobId });
    queued += 1;
  }
  return { queued };
}
