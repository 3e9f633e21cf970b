import { features, BULK_VERIFY_PLAN_MESSAGE, type EmailVerificationResult, type EmailVerifyBatchAnswer } from '@sendwell/contracts';
import { AppError, forbidden, rateLimited, upstreamUnavailable, type AuthUser } from '@sendwell/server-kit';
import type { EmailVerifier } from './email-verifier.js';
import type { FixedWindowRepository } from '../shared/fixed-window.repository.js';

export const VERIFY_UNAVAILABLE = 'Email verification is unavailable right now. Please try again later.';

export interface EmailVerifyLimits {
  /** Verifications per user per window. */
  limit: number;
  windowSeconds: number;
  /** Addresses per user per bulk window (the bulk mode's own allowance). */
  bulkLimit: number;
  bulkWindowSeconds: number;
}

/** Addresses of one batch looked up at once: they mostly share a few domains, whose answers are cached. */
const BATCH_CONCURRENCY = 8;

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

  /**
   * The bulk mode's batch (standard and advanced). The whole batch is counted before any lookup; a
   * batch past the allowance is refused whole and given back, so the user can send a smaller one.
   */
  async verifyBatch(user: Pick<AuthUser, 'id' | 'planType'>, emails: readonly string[]): Promise<EmailVerifyBatchAnswer> {
    if (!features.inboxPlacement(user.planType)) throw forbidden(BULK_VERIFY_PLAN_MESSAGE);
    const { bulkLimit, bulkWindowSeconds } = this.limits;
    const hit = await this.windows.hit('email-verify-bulk', user.id, bulkWindowSeconds * 1000, emails.length).catch((error: unknown) => {
      throw error instanceof AppError ? error : upstreamUnavailable(VERIFY_UNAVAILABLE, error);
    });
    if (hit.count > bulkLimit) {
      await this.windows.refund('email-verify-bulk', user.id, emails.length).catch(() => undefined);
      const left = Math.max(0, bulkLimit - (hit.count - emails.length));
      const retryAfterSeconds = Math.max(1, Math.ceil(hit.resetInMs / 1000));
      throw rateLimited(
        `You have reached the limit of ${bulkLimit} bulk verifications per ${windowText(bulkWindowSeconds)} (${left} left). Please try again in ${waitText(retryAfterSeconds)}.`,
        retryAfterSeconds,
      );
    }
    // The same address twice in a batch is looked up once.
    const unique = [...new Set(emails)];
    const byEmail = new Map<string, EmailVerificationResult>();
    let next = 0;
    const worker = async () => {
      while (next < unique.length) {
        const email = unique[next++]!;
        byEmail.set(email, await this.verifier.verify(email));
      }
    };
    await Promise.all(Array.from({ length: Math.min(BATCH_CONCURRENCY, unique.length) }, worker));
    return { results: emails.map((e) => byEmail.get(e)!), remaining: Math.max(0, bulkLimit - hit.count) };
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
