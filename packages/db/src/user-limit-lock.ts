import { sql, type Transaction } from 'kysely';
import type { Database, DB } from './database.js';

/**
 * The per-user limits enforced by counting rows and then inserting: each has a lock of its own, so
 * a user adding a webhook never waits on the same user's report quota.
 */
export type UserLimit = 'reports' | 'webhook-endpoints' | 'mail-tests';

/**
 * Runs `work` in a transaction holding a per-user, per-limit advisory lock (released at commit or
 * rollback): concurrent requests of one user count and insert one after the other, so twenty at
 * once cannot all see room under the limit. Where the plan must not change under the count (the
 * domains limit), the user's row lock (`SELECT … FOR UPDATE`, which plan changes also take) is used
 * instead.
 */
export function withUserLimitLock<T>(db: Database, limit: UserLimit, userId: number, work: (trx: Transaction<DB>) => Promise<T>): Promise<T> {
  return db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(hashtext(${limit}), ${userId})`.execute(trx);
    return work(trx);
  });
}
