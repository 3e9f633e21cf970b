import { createHmac } from 'node:crypto';
import { loginThrottledMessage } from '@sendwell/contracts';
import { rateLimited, type Logger } from '@sendwell/server-kit';
import type { LoginAttemptRepository, LoginBackoff } from '../repositories/login-attempt.repository.js';

const WARN_EVERY_MS = 60_000;

/**
 * Slows password guessing against one account, however many addresses it comes from (the gateway
 * limits per address only). Every attempt counts, for unknown emails too, so the answer never shows
 * whether an account exists; a successful sign-in clears the count. The check runs before the password
 * hash is read, so a locked account costs no argon2 work and tells nothing about the password.
 * Redis trouble never blocks a sign-in: the throttle fails open and logs a warning (at most once a minute).
 */
export class LoginThrottle {
  private lastWarning = 0;

  constructor(
    private readonly attempts: LoginAttemptRepository,
    private readonly backoff: LoginBackoff,
    /** Keys the email digest, so a copy of Redis cannot be matched against a list of addresses. */
    private readonly digestKey: string,
    private readonly logger: Logger,
  ) {}

  /** Counts an attempt on `email`; throws 429 RATE_LIMITED with Retry-After while the account is locked. */
  async enter(email: string): Promise<void> {
    let lockedMs: number;
    try {
      lockedMs = await this.attempts.attempt(this.digest(email), this.backoff);
    } catch (err) {
      this.warn(err);
      return;
    }
    if (lockedMs > 0) {
      const seconds = Math.ceil(lockedMs / 1000);
      throw rateLimited(loginThrottledMessage(seconds), seconds);
    }
  }

  /** The right password was given: the account starts afresh. */
  async succeeded(email: string): Promise<void> {
    try {
      await this.attempts.clear(this.digest(email));
    } catch (err) {
      this.warn(err);
    }
  }

  private digest(email: string): string {
    return createHmac('sha256', this.digestKey).update(email.trim().toLowerCase()).digest('base64url');
  }

  private warn(err: unknown): void {
    const now = Date.now();
    if (now - this.lastWarning < WARN_EVERY_MS) return;
    this.lastWarning = now;
    this.logger.warn({ err }, 'login throttle unavailable (redis); sign-ins are not slowed until it is back');
  }
}
