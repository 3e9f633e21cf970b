import { z } from '../zod.js';
import { isoDateTime } from '../common.js';
import { emailCategories, emailVerificationReasons } from './email-verification-reasons.js';
export { emailCategories, emailVerificationReasons } from './email-verification-reasons.js';

export const emailCategorySchema = z.enum(emailCategories);
export type EmailCategory = z.infer<typeof emailCategorySchema>;

export type EmailVerificationStatus = keyof typeof emailVerificationReasons;
export const emailVerificationStatuses = Object.keys(emailVerificationReasons) as EmailVerificationStatus[];

export const emailVerificationResultSchema = z.object({
  email: z.string(),
  category: emailCategorySchema,
  /** Raw result text; one of `emailVerificationStatuses` from our verifier, but shown as given. */
  status: z.string(),
  description: z.string(),
  timestamp: isoDateTime,
});
export type EmailVerificationResult = z.infer<typeof emailVerificationResultSchema>;
