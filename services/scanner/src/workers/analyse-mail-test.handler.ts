import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import { JobName, mailTestChannel, mailTestSessionSchema, type MailTestAnalysis, type MailTestSession, type MailTestStatus } from '@sendwell/contracts';
import type { Database } from '@sendwell/db';
import { queueSenderRequirementsRefresh } from '@sendwell/scan-engine';
import type { JobHandler, Logger, Queues } from '@sendwell/server-kit';
import { UnrecoverableError, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import { MAX_PARSED_BYTES, UnreadableMessageError } from '../mail-test/parse-message.js';
import { MailTestRepository } from '../repositories/mail-test.repository.js';

const gunzipAsync = promisify(gunzip);

/** Reads one message (analyseMailTest with a fresh resolver and the scanner's block lists, in production). */
export type AnalyseFn = (raw: Buffer, session: MailTestSession) => Promise<MailTestAnalysis>;

export interface AnalyseMailTestHandlerDeps {
  db: Database;
  /** Where a test's status changes are published (the intake relays them to the browser). */
  redis: Redis;
  /** Where the refresh of the test's domain's sender requirements is queued (the intake queue). */
  queues: Queues;
  analyse: AnalyseFn;
}

/** Reasons shown to the user of a failed test: plain words, never a stack or an internal detail. */
export const MAIL_TEST_ERRORS = {
  damaged: 'The stored message is damaged and could not be analysed. Please send another test message.',
  unreadable: 'The message is not a readable e-mail message: its MIME structure could not be parsed.',
  interrupted: 'The analysis was interrupted too often. Please send another test message.',
  failed: 'The message could not be analysed: a lookup or a step of the analysis kept failing. Please send another test message.',
} as const;
const PLAIN_ERRORS: ReadonlySet<string> = new Set(Object.values(MAIL_TEST_ERRORS));
const STALLED_TOO_OFTEN = /stalled more than allowable limit/;

/** Decompressed bytes allowed: the intake stores at most its message limit, so more is a damaged (or hostile) row. */
const MAX_GUNZIPPED_BYTES = 2 * MAX_PARSED_BYTES;

/**
 * Reads one received test message and stores the analysis. A test in any other state is left alone
 * (the sweep may queue it twice); a failure is only thrown here: `failMailTest`, the worker's
 * final-failure hook, is the one place a test that failed for good is written.
 */
export function analyseMailTestHandler({ db, redis, queues, analyse }: AnalyseMailTestHandlerDeps): JobHandler<typeof JobName.AnalyseMailTest> {
  return async ({ testId }, _job, log) => {
    const tests = new MailTestRepository(db);
    const test = await tests.findReceived(testId);
    if (!test || test.status !== 'received') {
      log.info({ testId, status: test?.status ?? null }, 'mail test not awaiting analysis: skipped');
      return { skipped: test ? `status-${test.status}` : 'missing-test' };
    }
    const session = mailTestSessionSchema.safeParse(test.session);
    if (test.rawGz === null || !session.success) throw new UnrecoverableError(MAIL_TEST_ERRORS.damaged);
    if (!(await tests.startAnalysis(testId))) return { skipped: 'status-changed' };

    const raw = await gunzipAsync(test.rawGz, { maxOutputLength: MAX_GUNZIPPED_BYTES }).catch(() => {
      throw new UnrecoverableError(MAIL_TEST_ERRORS.damaged);
    });
    const analysis = await analyse(raw, session.data).catch((error: unknown) => {
      if (error instanceof UnreadableMessageError) throw new UnrecoverableError(MAIL_TEST_ERRORS.unreadable);
      throw error;
    });
    const stored = await tests.complete(testId, analysis, new Date());
    if (!stored) return { skipped: 'status-changed' };
    await publishStatus(redis, testId, 'done', log);
    if (stored.domainId !== null) await queueSenderRequirementsRefresh(queues, stored.domainId, log);
    log.info({ testId, domainId: stored.domainId, score: analysis.score.value, findings: analysis.findings.length }, 'mail test analysed');
    return { score: analysis.score.value };
  };
}

/** The reason stored on a failed test. */
export function safeMailTestError(error: Error): string {
  if (STALLED_TOO_OFTEN.test(error.message)) return MAIL_TEST_ERRORS.interrupted;
  return PLAIN_ERRORS.has(error.message) ? error.message : MAIL_TEST_ERRORS.failed;
}

/** The final-failure hook's part for mail tests: an `analyse-mail-test` job failed for good fails its test, and says so. */
export function failMailTest({ db, redis }: Pick<AnalyseMailTestHandlerDeps, 'db' | 'redis'>, log: Logger): (job: Job, error: Error) => Promise<void> {
  return async (job, error) => {
    const testId = (job.data as { testId?: unknown } | undefined)?.testId;
    if (job.name !== JobName.AnalyseMailTest || typeof testId !== 'number') return;
    if (await new MailTestRepository(db).markFailed(testId, safeMailTestError(error), new Date())) await publishStatus(redis, testId, 'failed', log);
  };
}

/** Tells whoever follows the test (the intake's event stream) that it changed; the row is the truth, so a lost message only delays the page. */
async function publishStatus(redis: Redis, testId: number, status: MailTestStatus, log: Logger): Promise<void> {
  try {
    await redis.publish(mailTestChannel(testId), JSON.stringify({ status }));
  } catch (err) {
    log.warn({ err, testId, status }, 'could not publish the mail test status');
  }
}
