import { RESET_TOKEN_INVALID } from '@sendwell/contracts';
import type { Database } from '@sendwell/db';
import { badRequest, type Logger } from '@sendwell/server-kit';
import type { Mailer } from '@sendwell/server-kit';
import { passwordResetMail } from '../mail/templates.js';
import { PasswordResetRepository } from '../repositories/password-reset.repository.js';
import { SessionRepository } from '../repositories/session.repository.js';
import { UserRepository } from '../repositories/user.repository.js';
import type { BackgroundTasks } from './background-tasks.js';
import type { PasswordHasher } from './password-hasher.js';
import { hashLinkToken, newLinkToken } from './tokens.js';

export const RESET_TTL_MS = 60 * 60 * 1000;
export const PASSWORD_RESET_SUCCESS = 'Your password has been reset. Please log in with your new password.';

export class PasswordResetService {
  constructor(
    private readonly db: Database,
    private readonly mailer: Mailer,
    private readonly hasher: PasswordHasher,
    private readonly background: BackgroundTasks,
    private readonly logger: Logger,
    private readonly appUrl: string,
  ) {}

  /**
   * Answers at once and does the work afterwards, so neither the answer nor its timing tells
   * whether the address has an account.
   */
  requestReset(email: string): void {
    this.background.run('password-reset-mail', () => this.sendResetMail(email));
  }

  async resetPassword(token: string, newPassword: string): Promise<void> {
    const passwordHash = await this.hasher.hash(newPassword);
    const userId = await this.db.transaction().execute(async (trx) => {
      const claimed = await new PasswordResetRepository(trx).claim(hashLinkToken(token));
      if (claimed === undefined) throw badRequest(RESET_TOKEN_INVALID);
      await new UserRepository(trx).setPasswordAfterReset(claimed, passwordHash);
      // Whoever knew the old password is signed out everywhere.
      await new SessionRepository(trx).revokeAllForUser(claimed);
      return claimed;
    });
    this.logger.info({ userId }, 'password reset; all sessions revoked');
  }

  private async sendResetMail(email: string): Promise<void> {
    const user = await new UserRepository(this.db).findByEmailWithSecrets(email);
    if (!user) {
      this.logger.info('password reset requested for an unknown email');
      return;
    }
    const { token, hash } = newLinkToken();
    await this.db.transaction().execute(async (trx) => {
      const resets = new PasswordResetRepository(trx);
      await resets.deleteUnusedForUser(user.id);
      await resets.create(user.id, hash, new Date(Date.now() + RESET_TTL_MS));
      // Inside the transaction: a token whose mail never left is not kept.
      await this.mailer.send(passwordResetMail(user, `${this.appUrl}/reset-password?token=${encodeURIComponent(token)}`));
    });
    this.logger.info({ userId: user.id }, 'password reset mail sent');
  }
}
