import type { EmailVerificationResult } from '@sendwell/contracts';
import { AppError, rateLimited, upstreamUnavailable, type AuthUser } from '@sendwell/server-kit';
import type { EmailVerifier } from '../email-verify/email-verifier.js';
import type { FixedWindowRepository } from '../repositories/fixed-window.repository.js';

export const VERIFY_UNAVAILABLE = 'Email verification is unavailable right now. Please try again later.';

export interface EmailVerifyLimits {
  /** Verifications per user per window. */
  limit: number;
  windowSeconds: number;
}

/** The email address verification tool (part 2 §2.15): open to every plan, limited per user. */
export class EmailVerifyService {
  constructor(
    private readonly verifier: EmailVerifier,
    private readonly windows: FixedWindowRepository,
    private readonly limits: EmailVerifyLimits,
  ) {}

  async verify(user: Pick<AuthUser, 'id'>, email: string): Promise<EmailVerificationResult> {
    // Counted before any lookup: each verification costs DNS queries and perhaps an SMTP dialogue.
    const hit = await this.windows.hit('email-verify', user.id, this.limits.windowSeconds * 1000).catch((error: unknown) => {
      throw error instanceof AppError ? error : upstreamUnavailable(VERIFY_UNAVAILABLE, error);
    });
    if (hit.count > this.limits.limit) {
      const retryAfterSeconds = Math.max(1, Math.ceil(hit.resetInMs / 1000));
      throw rateLimited(`You have reached the limit of ${this.limits.limit} email verifications per ${windowText(this.limits.windowSeconds)}. Please try again in ${waitText(retryAfterSeconds)}.`, retryAfterSeconds);
    }
    return this.verifier.verify(email);
  }
}

function windowText(seconds: number): string {
  if (seconds % 3600 === 0) return seconds === 3600 ? 'hour' : `${seconds / 3600} hours`;
  if (seconds % 60 === 0) return seconds === 60 ? 'minute' : `${seconds / 60} minutes`;
  return `${seconds} seconds`;
}

function waitText(seconds: number): string {
  if (seconds < 60) return `${seconds} second${seconds === 1 ? '' : 's'}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minute${minutes === 1 ? '' : 's'}`;
}
