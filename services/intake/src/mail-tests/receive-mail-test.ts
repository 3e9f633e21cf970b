import { analyseMailTestJobId, JobName, mailTestChannel, type MailTestSession } from '@sendwell/contracts';
import type { Logger, Queues } from '@sendwell/server-kit';
import type { Redis } from 'ioredis';
import type { MailTestRepository } from './mail-test.repository.js';

export interface ReceiveMailTestDeps {
  mailTests: MailTestRepository;
  queues: Queues;
  redis: Redis;
  logger: Logger;
}

/**
 * Stores a test's message with the SMTP session (only while the test still waits: an address takes
 * one message), then queues its analysis and tells the test's event streams. The row is the message's
 * safety: when queueing fails the sweep queues it later, so the sender hears 250 once it is stored.
 * False when the test took another message first (nothing stored).
 */
export async function receiveMailTest(deps: ReceiveMailTestDeps, testId: number, raw: Uint8Array, session: MailTestSession): Promise<boolean> {
  if (!(await deps.mailTests.markReceived(testId, { raw, session, receivedAt: new Date(session.receivedAt) }))) return false;
  try {
    await deps.queues.add(JobName.AnalyseMailTest, { testId }, { jobId: analyseMailTestJobId(testId) });
  } catch (err) {
    deps.logger.warn({ err, testId }, 'mail test stored but not queued; the sweep queues it');
  }
  await publishMailTestChange(deps, testId, 'received');
  return true;
}

/** Tells the test's event streams (in every intake process) to read it again; a lost publication only delays the browser's view. */
export async function publishMailTestChange(deps: { redis: Redis; logger: Logger }, testId: number, status: string): Promise<void> {
  try {
    await deps.redis.publish(mailTestChannel(testId), status);
  } catch (err) {
    deps.logger.warn({ err, testId }, 'mail test change not published');
  }
}
