import type { EmailVerifyAnswer, EmailVerifyBatchAnswer } from '@sendwell/contracts';
import { api } from '@/lib/api-client';

/** POST /api/email-verify {email}: one address's verdict. */
export function verifyEmailAddress(email: string): Promise<EmailVerifyAnswer> {
  return api.post<EmailVerifyAnswer>('/api/email-verify', { email });
}

/** POST /api/email-verify/batch {emails}: one batch of the bulk mode, answered in order. */
export function verifyEmailBatch(emails: readonly string[]): Promise<EmailVerifyBatchAnswer> {
  return api.post<EmailVerifyBatchAnswer>('/api/email-verify/batch', { emails });
}
