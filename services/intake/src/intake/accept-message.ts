import { JobName, readIntakeMessageJobId } from '@sendwell/contracts';
import type { Queues } from '@sendwell/server-kit';
import type { IntakeMessageRepository, NewIntakeMessage } from './intake-message.repository.js';

/**
 * Stores a received message, then queues its reading. The row is the message's safety: when queueing
 * fails (Redis down) the message is still kept and the sweep queues it later, so the sender is told 250
 * once the row is written.
 */
export async function acceptMessage(messages: IntakeMessageRepository, queues: Queues, message: NewIntakeMessage, onQueueError: (err: unknown) => void): Promise<number> {
  const id = await messages.store(message);
  try {
    await queues.add(JobName.ReadIntakeMessage, { messageId: id }, { jobId: readIntakeMessageJobId(id) });
  } catch (err) {
    onQueueError(err);
  }
  return id;
}
