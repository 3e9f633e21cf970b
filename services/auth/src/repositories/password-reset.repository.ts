import { sql, type Executor } from '@sendwell/db';

export class PasswordResetRepository {
  constructor(private readonly db: Executor) {}

  create(userId: number, tokenHash: string, expiresAt: Date): Promise<unknown> {
    return this.db.insertInto('passwordResetTokens').values({ userId, tokenHash, expiresAt }).execute();
  }

  /** A new request supersedes the links mailed before it. */
  deleteUnusedForUser(userId: number): Promise<unknown> {
    return this.db.deleteFrom('passwordResetTokens').where('userId', '=', userId).where('usedAt', 'is', null).execute();
  }

  /**
   * Uses a token in one statement: only an unused, unexpired token is marked used and yields its
   * user, so two requests racing with the same link cannot both succeed.
   */
  async claim(tokenHash: string): Promise<number | undefined> {
    const row = await this.db
      .updateTable('passwordResetTokens')
      .set({ usedAt: sql`now()` })
      .where('tokenHash', '=', tokenHash)
      .where('usedAt', 'is', null)
      .where('expiresAt', '>', sql<Date>`now()`)
      .returning('userId')
      .executeTakeFirst();
    return row?.userId;
  }
}
