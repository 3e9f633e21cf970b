import type { DB, Executor } from '@sendwell/db';
import type { Expression, ExpressionBuilder, SqlBool } from 'kysely';
import { deleteInBatches, idArray } from '../shared/batches.js';

type Spent<T extends keyof DB> = {
  where: (eb: ExpressionBuilder<DB, T>) => Expression<SqlBool>;
  /** The indexed column of `where`, so each batch is an index range scan. */
  orderBy: keyof DB[T] & string;
};

/**
 * The nightly clean-up of the auth service's spent rows, run by this service's maintenance worker
 * (the one worker on that queue). Each predicate is deleted in its own batched loop over its own
 * index (from the nightly-clean-up migration).
 */
export class MaintenanceRepository {
  constructor(private readonly db: Executor) {}

  /** Sessions past their expiry or revoked (logout, password change): the auth plugin refuses both already. */
  async purgeSessions(now: Date, batch: number): Promise<number> {
    const expired = await this.deleteSessions({ where: (eb) => eb('expires', '<=', now), orderBy: 'expires' }, batch);
    const revoked = await this.deleteSessions({ where: (eb) => eb('revokedAt', 'is not', null), orderBy: 'revokedAt' }, batch);
    return expired + revoked;
  }

  /** Reset links already used or past their expiry: `claim` accepts neither. */
  async purgePasswordResetTokens(now: Date, batch: number): Promise<number> {
    const expired = await this.deleteResetTokens({ where: (eb) => eb('expiresAt', '<=', now), orderBy: 'expiresAt' }, batch);
    const used = await this.deleteResetTokens({ where: (eb) => eb('usedAt', 'is not', null), orderBy: 'usedAt' }, batch);
    return expired + used;
  }

  private deleteSessions(spent: Spent<'sessions'>, batch: number): Promise<number> {
    return deleteInBatches(batch, async () => {
      const result = await this.db
        .deleteFrom('sessions')
        .where((eb) => eb('id', '=', eb.fn.any(idArray<string>(eb.selectFrom('sessions').select('id').where(spent.where).orderBy(spent.orderBy).limit(batch)))))
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    });
  }

  private deleteResetTokens(spent: Spent<'passwordResetTokens'>, batch: number): Promise<number> {
    return deleteInBatches(batch, async () => {
      const result = await this.db
        .deleteFrom('passwordResetTokens')
        .where((eb) =>
          eb('id', '=', eb.fn.any(idArray<number>(eb.selectFrom('passwordResetTokens').select('id').where(spent.where).orderBy(spent.orderBy).limit(batch)))),
        )
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    });
  }
}
