import { z } from '../zod.js';
import { emailVerificationResultSchema } from '../entities/email-verification.js';
import { messages, textField } from '../validation.js';
import { EMAIL_VERIFY_BATCH_MAX } from './email-verify-limits.js';
export { EMAIL_VERIFY_BULK_MAX, EMAIL_VERIFY_BATCH_MAX, BULK_VERIFY_PLAN_MESSAGE } from './email-verify-limits.js';

/**
 * POST /api/email-verify. Only emptiness is refused here: a malformed address is a result
 * (do_not_send / syntax_error), not a bad request.
 */
export const emailVerifyBody = z.object({
  email: textField({ label: 'Email address', max: 320, required: messages.emailRequired }),
});
export type EmailVerifyBody = z.infer<typeof emailVerifyBody>;
export const emailVerifyAnswer = emailVerificationResultSchema;
export type EmailVerifyAnswer = z.infer<typeof emailVerifyAnswer>;

export const emailVerifyBatchBody = z.object({
  emails: z
    .array(textField({ label: 'Email address', max: 320, required: messages.emailRequired }), { error: 'Send a list of email addresses' })
    .min(1, 'Send at least one email address')
    .max(EMAIL_VERIFY_BATCH_MAX, `Send at most ${EMAIL_VERIFY_BATCH_MAX} email addresses per batch`),
});
export type EmailVerifyBatchBody = z.infer<typeof emailVerifyBatchBody>;
export const emailVerifyBatchAnswer = z.object({
  results: z.array(emailVerificationResultSchema),
  /** Addresses the user may still verify in bulk in the current window. */
  remaining: z.number().int().nonnegative(),
});
export type EmailVerifyBatchAnswer = z.infer<typeof emailVerifyBatchAnswer>;
