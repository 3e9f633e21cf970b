import { analyseMailTestJobId, JobName } from '@sendwell/contracts';
import type { Logger, Queues } from '@sendwell/server-kit';
import type { Redis } from 'ioredis';
import type { MailTestRepository } from './mail-test.repository.js';
import { freeFinishedJobId } from '../workers/free-finished-job-id.js';
import { publishMailTestChange } from './receive-mail-test.js';

/** A test received this long ago and still not analysed has lost its job (Redis restarted, `add` failed) or its job gave up. */
export const UNANALYSED_AFTER_MS = 2 * 60_000;
/** Analyses started (counted by the scanner) before a test is given up. */
export const MAX_ANALYSIS_ATTEMPTS = 3;
export const MAIL_TEST_NOT_ANALYSED = 'The message could not be analysed. Please send another test message to a new test address.';
const SWEEP_BATCH = 500;

export interface SweepDeps {
  mailTests: MailTestRepository;
  queues: Queues;
  redis: Redis;
  logger: Logger;
}

/**
 * Queues the analysis of received tests again, or fails those tried MAX_ANALYSIS_ATTEMPTS times (and
 * tells their event streams). The job id is the test's, so a job still waiting or running makes the
 * add a no-op; a finished job still holding that id is removed first (sweep-unread-intake-messages).
 */
export async function sweepUnanalysedMailTests(deps: SweepDeps, now = new Date()): Promise<{ queued: number; failed: number }> {
  const stuck = await deps.mailTests.receivedBefore(new Date(now.getTime() - UNANALYSED_AFTER_MS), SWEEP_BATCH);
  let queued = 0;
  let failed = 0;
  for (const { id, attempts } of stuck) {
    if (attempts >= MAX_ANALYSIS_ATTEMPTS) {
      if (await deps.mailTests.failReceived(id, MAIL_TEST_NOT_ANALYSED, now)) {
        failed += 1;
        await publishMailTestChange(deps, id, 'failed');
      }
      continue;
    }
    const jobId = analyseMailTestJobId(id);
    if (!(await freeFinishedJobId(deps.queues.scan, jobId))) continue;
    await deps.queues.add(JobName.AnalyseMailTest, { testId: id }, { jobId });
    queued += 1;
  }
  return { queued, failed };
}
