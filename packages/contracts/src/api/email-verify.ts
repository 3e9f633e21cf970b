import { z } from 'zod';
import { emailVerificationResultSchema } from '../entities/email-verification.js';
import { messages, textField } from '../validation.js';

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
