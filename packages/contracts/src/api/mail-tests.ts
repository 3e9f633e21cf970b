import { z } from '../zod.js';
import { idParamSchema } from '../common.js';
import { mailTestSchema, mailTestSummarySchema } from '../entities/mail-test.js';
export * from '../entities/mail-test.js';

export const MAIL_TEST_PLAN_MESSAGE = 'Inbox testing is available for Standard and Advanced subscribers only. Please upgrade to test your messages.';
export const MAIL_TEST_UNKNOWN_ADDRESS = 'This test address is unknown, has expired or has already received its message.';

export function mailTestQuotaMessage(limit: number): string {
  return `You have used all ${limit} inbox tests of today. More are available tomorrow (UTC).`;
}

export const mailTestIdParams = z.object({ id: idParamSchema });
export type MailTestIdParams = z.infer<typeof mailTestIdParams>;

/** POST /api/mail-tests (201): the address to send the test message to, open for an hour. */
export const createMailTestAnswer = mailTestSummarySchema;
/** GET /api/mail-tests: the caller's tests of the last 30 days, newest first, and today's quota. */
export const listMailTestsAnswer = z.object({
  tests: z.array(mailTestSummarySchema),
  quota: z.object({ used: z.number().int().nonnegative(), limit: z.number().int().nonnegative() }),
});
export type ListMailTestsAnswer = z.infer<typeof listMailTestsAnswer>;
/** GET /api/mail-tests/{id}, and each `status` event of GET /api/mail-tests/{id}/events. */
export const mailTestAnswer = mailTestSchema;

/** Server-sent events of a test: `status` (the whole MailTest) on every change; the stream ends once the test is done, failed or expired. */
export const MAIL_TEST_EVENT = 'status';
/** Redis channel the scanner publishes a test's changes on (the intake relays them as events). */
export function mailTestChannel(testId: number): string {
  return `mail-test:${testId}`;
}
