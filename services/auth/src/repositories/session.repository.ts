import { sql, type Executor } from '@sendwell/db';

export interface NewSession {
  userId: number;
  expires: Date;
  userAgent: string | null;
  ip: string | null;
}

export class SessionRepository {
  constructor(private readonly db: Executor) {}

  create(session: NewSession): Promise<{ id: string; expires: Date }> {
    return this.db.insertInto('sessions').values(session).returning(['id', 'expires']).executeTakeFirstOrThrow();
  }

  /** Revokes one session of one user; a session of someone else is left alone. */
  async revoke(id: string, userId: number): Promise<boolean> {
    const result = await this.db
      .updateTable('sessions')
      .set({ revokedAt: sql`now()` })
      .where('id', '=', id)
      .where('userId', '=', userId)
      .where('revokedAt', 'is', null)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  async revokeAllForUser(userId: number): Promise<number> {
    const result = await this.db
      .updateTable('sessions')
      .set({ revokedAt: sql`now()` })
      .where('userId', '=', userId)
      .where('revokedAt', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  /** Every live session of the user but `keepId` (the one that changed the password). */
  async revokeAllForUserExcept(userId: number, keepId: string): Promise<number> {
    const result = await this.db
      .updateTable('sessions')
      .set({ revokedAt: sql`now()` })
      .where('userId', '=', userId)
      .where('id', '<>', keepId)
      .where('revokedAt', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }
}
