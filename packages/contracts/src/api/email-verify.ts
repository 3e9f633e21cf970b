import { z } from 'zod';
import { emailVerificationResultSchema } from '../entities/email-verification.js';
import { messages } from '../validation.js';

/**
 * POST /api/email-verify. Only emptiness is refused here: a malformed address is a result
 * (do_not_send / syntax_error), not a bad request.
 */
export const emailVerifyBody = z.object({
  email: z.string({ error: messages.emailRequired }).trim().min(1, messages.emailRequired).max(320, 'Email address is too long'),
});
export type EmailVerifyBody = z.infer<typeof emailVerifyBody>;
export const emailVerifyAnswer = emailVerificationResultSchema;
export type EmailVerifyAnswer = z.infer<typeof emailVerifyAnswer>;
