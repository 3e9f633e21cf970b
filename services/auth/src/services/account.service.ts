import {
  ACCOUNT_DELETION_UNAVAILABLE,
  ACCOUNT_EXPORT_UNAVAILABLE,
  DELETE_ACCOUNT_WRONG_PASSWORD,
  NOT_AUTHENTICATED,
  USERNAME_TAKEN,
  WRONG_CURRENT_PASSWORD,
  type AccountExport,
  type changePasswordBody,
  type updateProfileBody,
} from '@sendwell/contracts';
import type { Database } from '@sendwell/db';
import { badRequest, conflict, unauthorized, type Logger, type Mailer } from '@sendwell/server-kit';
import type { z } from 'zod';
import { passwordChangedMail } from '../mail/templates.js';
import { toAccountExport } from '../mappers/account-export.mapper.js';
import { AccountExportRepository } from '../repositories/account-export.repository.js';
import { SessionRepository } from '../repositories/session.repository.js';
import { USERS_USERNAME_UNIQUE, UserRepository, type UserRow } from '../repositories/user.repository.js';
import type { BackgroundTasks } from './background-tasks.js';
import type { BillingClient, SessionCredentials } from './billing-client.js';
import type { LoginThrottle } from './login-throttle.js';
import type { PasswordHasher } from './password-hasher.js';

export type ProfileInput = z.output<typeof updateProfileBody>;
export type PasswordChangeInput = z.output<typeof changePasswordBody>;

/** The signed-in caller: their ids and the credentials their request came with (passed on to billing). */
export interface Caller {
  user: { id: number; email: string };
  sessionId: string;
  /** Fastify's `request.ip`: the login throttle counts a re-entered password per client network, as a login. */
  ip: string;
  credentials: SessionCredentials;
}

export interface AccountServiceOptions {
  appUrl: string;
  adminEmail: string | undefined;
}

/**
 * Settings → Account: the caller's profile, password, data export and deletion. Each call acts on
 * the caller's own row only. A password is asked again for a change or a deletion, and those
 * attempts count against the account like logins, so a stolen session cannot guess it.
 */
export class AccountService {
  private readonly users: UserRepository;

  constructor(
    private readonly db: Database,
    private readonly hasher: PasswordHasher,
    private readonly loginThrottle: LoginThrottle,
    private readonly billing: BillingClient,
    private readonly mailer: Mailer,
    private readonly background: BackgroundTasks,
    private readonly logger: Logger,
    private readonly options: AccountServiceOptions,
  ) {
    this.users = new UserRepository(db);
  }

  async updateProfile(userId: number, input: ProfileInput): Promise<UserRow> {
    if (await this.users.usernameTakenByOther(input.username, userId)) throw conflict(USERNAME_TAKEN);
    try {
      return orGone(await this.users.updateProfile(userId, input));
    } catch (err) {
      // Two users racing for one name past the check: the unique index decides.
      if ((err as { constraint?: string }).constraint === USERS_USERNAME_UNIQUE) throw conflict(USERNAME_TAKEN);
      throw err;
    }
  }

  /** The new password holds from now on: every other session ends, the caller's stays, and a notice is mailed. */
  async changePassword(caller: Caller, input: PasswordChangeInput): Promise<void> {
    const { user } = caller;
    const checkedHash = await this.checkPassword(caller, input.currentPassword, WRONG_CURRENT_PASSWORD);
    const newHash = await this.hasher.hash(input.newPassword);
    const revoked = await this.db.transaction().execute(async (trx) => {
      if (!(await new UserRepository(trx).replacePasswordHash(user.id, checkedHash, newHash))) throw badRequest(WRONG_CURRENT_PASSWORD);
      return new SessionRepository(trx).revokeAllForUserExcept(user.id, caller.sessionId);
    });
    this.logger.info({ userId: user.id, revokedSessions: revoked }, 'password changed');
    // After commit, and not awaited: the change stands whether or not the mail server answers now.
    this.background.run('password-changed-mail', async () => {
      const recipient = orGone(await this.users.findById(user.id));
      await this.mailer.send(passwordChangedMail(recipient, `${this.options.appUrl}/login`));
    });
  }

  /**
   * Deletes the caller's account once their password is confirmed. Billing goes first (the
   * subscription stops charging, the Stripe customer with their name and email is deleted); if it
   * cannot, nothing is deleted. Every table the user owns cascades from the users row.
   */
  async deleteAccount(caller: Caller, password: string): Promise<void> {
    const { user } = caller;
    const checkedHash = await this.checkPassword(caller, password, DELETE_ACCOUNT_WRONG_PASSWORD);
    await this.billing.closeAccount(caller.credentials, ACCOUNT_DELETION_UNAVAILABLE);
    if (!(await this.users.deleteIfPasswordHash(user.id, checkedHash))) throw badRequest(DELETE_ACCOUNT_WRONG_PASSWORD);
    this.logger.info({ userId: user.id }, 'account deleted');
  }

  /** Everything stored about the caller, without a secret; the invoices come from billing (Stripe keeps them). */
  async export(caller: Caller): Promise<AccountExport> {
    const userId = caller.user.id;
    const rows = new AccountExportRepository(this.db);
    const [user, domains, scans, alerts, integrations, webhooks, reports, invoices] = await Promise.all([
      this.users.findById(userId),
      rows.domains(userId),
      rows.scanSummaries(userId),
      rows.alerts(userId),
      rows.integrations(userId),
      rows.webhooks(userId),
      rows.reports(userId),
      this.billing.invoices(caller.credentials, ACCOUNT_EXPORT_UNAVAILABLE),
    ]);
    const parts = { user: orGone(user), domains, scans, alerts, integrations, webhooks, reports, invoices };
    return toAccountExport(parts, new Date(), this.options.adminEmail);
  }

  /** The stored hash when `password` matches it; else a 400 with `wrongMessage` (the session is fine: not a 401). */
  private async checkPassword({ user, ip }: Caller, password: string, wrongMessage: string): Promise<string> {
    await this.loginThrottle.enter(user.email, ip);
    const passwordHash = await this.users.findPasswordHash(user.id);
    if (passwordHash === undefined) throw unauthorized(NOT_AUTHENTICATED);
    if (!(await this.hasher.verify(passwordHash, password))) throw badRequest(wrongMessage);
    await this.loginThrottle.succeeded(user.email, ip);
    return passwordHash;
  }
}

/** The user was deleted while the request ran: their session is worth nothing now. */
function orGone<T>(row: T | undefined): T {
  if (!row) throw unauthorized(NOT_AUTHENTICATED);
  return row;
}
