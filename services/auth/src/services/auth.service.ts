import {
  EMAIL_NOT_VERIFIED,
  JobName,
  signupDomainJobId,
  EMAIL_TAKEN,
  INVALID_CREDENTIALS,
  USERNAME_TAKEN,
  VERIFICATION_TOKEN_INVALID,
  type loginBody,
  type registerBody,
} from '@sendwell/contracts';
import type { Database } from '@sendwell/db';
import { AppError, badRequest, conflict, forbidden, unauthorized, upstreamUnavailable, type Logger, type Queues } from '@sendwell/server-kit';
import type { z } from 'zod';
import type { Mailer } from '@sendwell/server-kit';
import { verificationMail } from '../mail/templates.js';
import { SessionRepository } from '../repositories/session.repository.js';
import { USERS_EMAIL_UNIQUE, USERS_USERNAME_UNIQUE, UserRepository, type UserRow, type UserWithSecrets } from '../repositories/user.repository.js';
import type { LoginThrottle } from './login-throttle.js';
import type { PasswordHasher } from './password-hasher.js';
import { hashLinkToken, newLinkToken } from './tokens.js';

export const VERIFICATION_TTL_MS = 24 * 60 * 60 * 1000;
/** Logging in unverified mails a fresh link, at most this often (the old link stops working). */
const VERIFICATION_RESEND_AFTER_MS = 10 * 60 * 1000;

export const VERIFICATION_SENT_MESSAGE =
  'Registration successful. We sent a verification link to your email address; please check your inbox (and spam folder) to activate your account.';
export const VERIFICATION_MAIL_FAILED =
  'We could not send the verification email right now, so your account was not created. Please try again in a few minutes.';

export type RegisterInput = z.output<typeof registerBody>;
export type LoginInput = z.output<typeof loginBody>;

/** Where a sign-in comes from, kept on the session row. */
export interface ClientInfo {
  userAgent: string | null;
  ip: string | null;
}

export interface SignedIn {
  user: UserRow;
  session: { id: string; expires: Date };
}

export type Registration = ({ kind: 'signed-in' } & SignedIn) | { kind: 'verification-sent' };

/** Sign-ups that arrive with a domain to watch: from the landing page or a quick check (part 1 §2, Dashboard). */
const DOMAIN_SIGNUP_SOURCES: ReadonlySet<string> = new Set(['quick-check', 'landing_page']);

export interface AuthServiceOptions {
  requireEmailVerification: boolean;
  sessionTtlMs: number;
  appUrl: string;
}

export class AuthService {
  private readonly users: UserRepository;
  private readonly sessions: SessionRepository;

  constructor(
    private readonly db: Database,
    private readonly mailer: Mailer,
    private readonly hasher: PasswordHasher,
    private readonly logger: Logger,
    private readonly options: AuthServiceOptions,
    /** Where the sign-up domain's provisioning job goes; the domains service adds the domain. */
    private readonly queues: Pick<Queues, 'add'>,
    private readonly loginThrottle: LoginThrottle,
  ) {
    this.users = new UserRepository(db);
    this.sessions = new SessionRepository(db);
  }

  async register(input: RegisterInput, client: ClientInfo): Promise<Registration> {
    const email = input.email.toLowerCase();
    const taken = await this.users.findTaken(email, input.username);
    if (taken.email) throw conflict(EMAIL_TAKEN);
    if (taken.username) throw conflict(USERNAME_TAKEN);

    const passwordHash = await this.hasher.hash(input.password);
    const verification = this.options.requireEmailVerification ? newLinkToken() : null;
    const values = {
      username: input.username,
      email,
      passwordHash,
      firstName: input.firstName,
      lastName: input.lastName,
      signupSource: input.signupSource,
      quickCheckDomain: input.quickCheckDomain,
      showUpgradeNotification: input.showUpgradeNotification,
      emailVerificationToken: verification?.hash ?? null,
      emailVerificationExpires: verification ? new Date(Date.now() + VERIFICATION_TTL_MS) : null,
    };

    let created: { registration: Registration; userId: number };
    try {
      created = await this.db.transaction().execute(async (trx) => {
        const user = await new UserRepository(trx).create(values);
        if (!verification) {
          const session = await new SessionRepository(trx).create(this.newSession(user.id, client));
          return { registration: { kind: 'signed-in', user, session } as const, userId: user.id };
        }
        // Sent inside the transaction: if the mail cannot go, the user row is rolled back, so nobody
        // is left with an account they cannot verify.
        try {
          await this.mailer.send(verificationMail(user, this.link('/verify-email', verification.token)));
        } catch (err) {
          this.logger.error({ err, userId: user.id }, 'verification mail failed; registration rolled back');
          throw upstreamUnavailable(VERIFICATION_MAIL_FAILED, err);
        }
        return { registration: { kind: 'verification-sent' } as const, userId: user.id };
      });
    } catch (err) {
      throw uniqueViolationToConflict(err);
    }
    // After commit: a job naming a user that was rolled back would add a domain to nobody.
    if (input.quickCheckDomain && DOMAIN_SIGNUP_SOURCES.has(input.signupSource)) {
      await this.queueSignupDomain(created.userId, input.quickCheckDomain);
    }
    return created.registration;
  }

  /**
   * The domain is added by the domains service's maintenance worker (it owns the table), moments after
   * registration. One job per user (its id), so a repeated call queues nothing twice. A queue failure
   * does not undo the account: the user can still add the domain from the dashboard.
   */
  private async queueSignupDomain(userId: number, domain: string): Promise<void> {
    try {
      // Bounded by `queues.add`: a Redis that never becomes ready must not hold the registration answer.
      await this.queues.add(JobName.ProvisionSignupDomain, { userId, domain }, { jobId: signupDomainJobId(userId) });
    } catch (err) {
      this.logger.error({ err, userId }, 'could not queue the sign-up domain');
    }
  }

  async login(input: LoginInput, client: ClientInfo): Promise<SignedIn> {
    // Before anything is read: a locked account answers 429 alike whether or not it exists.
    await this.loginThrottle.enter(input.email, client.ip);
    const user = await this.users.findByEmailWithSecrets(input.email);
    const ok = user ? await this.hasher.verify(user.passwordHash, input.password) : await this.hasher.verifyNobody(input.password);
    if (!user || !ok) throw unauthorized(INVALID_CREDENTIALS);
    await this.loginThrottle.succeeded(input.email, client.ip);

    if (this.options.requireEmailVerification && !user.emailVerified) {
      await this.resendVerificationIfDue(user);
      throw forbidden(EMAIL_NOT_VERIFIED);
    }
    const session = await this.sessions.create(this.newSession(user.id, client));
    return { user, session };
  }

  /** Revokes the session a token names; a token of an unknown or revoked session changes nothing. */
  async logout(claims: { sub: string; sid: string }): Promise<void> {
    const userId = Number(claims.sub);
    if (!Number.isSafeInteger(userId) || !UUID.test(claims.sid)) return;
    await this.sessions.revoke(claims.sid, userId);
  }

  async verifyEmail(token: string, client: ClientInfo): Promise<SignedIn> {
    return this.db.transaction().execute(async (trx) => {
      const user = await new UserRepository(trx).verifyEmailByToken(hashLinkToken(token));
      if (!user) throw badRequest(VERIFICATION_TOKEN_INVALID);
      const session = await new SessionRepository(trx).create(this.newSession(user.id, client));
      return { user, session };
    });
  }

  /**
   * A user whose link expired (or was lost) would otherwise be stuck: registering again says the
   * email is taken. The right password proves the account is theirs, so a fresh link is mailed.
   */
  private async resendVerificationIfDue(user: UserWithSecrets): Promise<void> {
    const expires = user.emailVerificationExpires;
    const issuedAt = expires ? expires.getTime() - VERIFICATION_TTL_MS : 0;
    if (Date.now() - issuedAt < VERIFICATION_RESEND_AFTER_MS) return;
    const { token, hash } = newLinkToken();
    try {
      // The new link replaces the old one only if its mail went out.
      await this.db.transaction().execute(async (trx) => {
        await new UserRepository(trx).setVerificationToken(user.id, hash, new Date(Date.now() + VERIFICATION_TTL_MS));
        await this.mailer.send(verificationMail(user, this.link('/verify-email', token)));
      });
    } catch (err) {
      this.logger.warn({ err, userId: user.id }, 'could not resend the verification mail');
    }
  }

  private newSession(userId: number, client: ClientInfo) {
    return { userId, expires: new Date(Date.now() + this.options.sessionTtlMs), userAgent: client.userAgent, ip: client.ip };
  }

  private link(path: string, token: string): string {
    return `${this.options.appUrl}${path}?token=${encodeURIComponent(token)}`;
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Two registrations racing past the pre-check: the unique index decides, and the answer is the same 409. */
function uniqueViolationToConflict(err: unknown): unknown {
  if (err instanceof AppError) return err;
  const pgError = err as { code?: string; constraint?: string };
  if (pgError.code !== '23505') return err;
  if (pgError.constraint === USERS_EMAIL_UNIQUE) return conflict(EMAIL_TAKEN);
  if (pgError.constraint === USERS_USERNAME_UNIQUE) return conflict(USERNAME_TAKEN);
  return err;
}
