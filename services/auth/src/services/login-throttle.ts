import { createHmac } from 'node:crypto';
import { loginThrottledMessage } from '@sendwell/contracts';
import { rateLimited, type Logger } from '@sendwell/server-kit';
import type { LoginAttemptRepository, LoginBackoff } from '../repositories/login-attempt.repository.js';
import { clientNetwork } from './client-network.js';

const WARN_EVERY_MS = 60_000;

/**
 * Slows password guessing against one account, however many addresses it comes from (the gateway
 * limits per address only), without letting a stranger lock the owner out. Attempts count per account
 * and client network (`clientNetwork`: a /24 or /56): a network the account signed in from before has
 * a bucket of its own, so failures elsewhere never delay the owner there; every other network counts
 * in its own bucket and in one shared by all unknown networks, which caps guessing spread over many.
 * Every attempt counts, for unknown emails too, so the answer never shows whether an account exists; a
 * successful sign-in clears its network's count. The check runs before the password hash is read, so
 * a locked account costs no argon2 work and tells nothing about the password.
 * Redis trouble never blocks a sign-in: the throttle fails open and logs a warning (at most once a minute).
 */
export class LoginThrottle {
  private lastWarning = 0;

  constructor(
    private readonly attempts: LoginAttemptRepository,
    private readonly backoff: LoginBackoff,
    /** Keys the email and network digests, so a copy of Redis cannot be matched against a list of addresses. */
    private readonly digestKey: string,
    private readonly logger: Logger,
  ) {}

  /**
   * Counts an attempt on `email` from `ip` (Fastify's `request.ip`; none, as in a re-authentication
   * inside a session, counts as an unknown network); throws 429 RATE_LIMITED with Retry-After while
   * its bucket is locked.
   */
  async enter(email: string, ip: string | null = null): Promise<void> {
    let lockedMs: number;
    try {
      lockedMs = await this.attempts.attempt(...this.digests(email, ip), this.backoff);
    } catch (err) {
      this.warn(err);
      return;
    }
    if (lockedMs > 0) {
      const seconds = Math.ceil(lockedMs / 1000);
      throw rateLimited(loginThrottledMessage(seconds), seconds);
    }
  }

  /** The right password was given: its network starts afresh and is known to the account from now on. */
  async succeeded(email: string, ip: string | null = null): Promise<void> {
    try {
      await this.attempts.succeeded(...this.digests(email, ip), new Date());
    } catch (err) {
      this.warn(err);
    }
  }

  /** Both digests of one attempt: the account's (its email in any case) and the client network's. */
  private digests(email: string, ip: string | null): [account: string, network: string] {
    const digest = (value: string) => createHmac('sha256', this.digestKey).update(value).digest('base64url');
    return [digest(email.trim().toLowerCase()), digest(`network:${clientNetwork(ip)}`)];
  }

  private warn(err: unknown): void {
    const now = Date.now();
    if (now - this.lastWarning < WARN_EVERY_MS) return;
    this.lastWarning = now;
    this.logger.warn({ err }, 'login throttle unavailable (redis); sign-ins are not slowed until it is back');
  }
}
