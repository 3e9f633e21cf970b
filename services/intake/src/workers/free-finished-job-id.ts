import type { Queue } from 'bullmq';

/**
 * Whether a job may be added again under `jobId`: a job still waiting or running makes the add a
 * no-op anyway, and one that finished without doing its work (failed for good, or stalled past its
 * limit) holds the id for a day, so it is removed first. False leaves the job be.
 */
export async function freeFinishedJobId(queue: Queue, jobId: string): Promise<boolean> {
  const existing = await queue.getJob(jobId);
  if (!existing) return true;
  const state = await existing.getState();
  if (state !== 'completed' && state !== 'failed') return false;
  // A job being picked up again at this moment is locked and cannot be removed: leave it be.
  return existing.remove().then(
    () => true,
    () => false,
  );
}
