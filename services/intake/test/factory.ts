import { randomBytes } from 'node:crypto';
import type { Database } from '@sendwell/db';

export type Factory = ReturnType<typeof factory>;

const tag = () => randomBytes(5).toString('hex');

/**
 * Rows for the intake's tests: users and sessions as auth writes them, domains as the domains service
 * writes them (the database gives each its report token).
 */
export function factory(db: Database) {
  return {
    async user(plan = 'standard') {
      const t = tag();
      return db
        .insertInto('users')
        .values({ username: `u${t}`, email: `u${t}@example.test`, passwordHash: 'x', planType: plan })
        .returning(['id', 'planType'])
        .executeTakeFirstOrThrow();
    },

    async session(userId: number): Promise<string> {
      const row = await db
        .insertInto('sessions')
        .values({ userId, expires: new Date(Date.now() + 3_600_000) })
        .returning(['id'])
        .executeTakeFirstOrThrow();
      return row.id;
    },

    /** An active domain (or a deleted one), with its report token. */
    async domain(opts: { userId: number; name?: string; deleted?: boolean; failureReports?: boolean }) {
      const row = await db
        .insertInto('domains')
        .values({
          userId: opts.userId,
          name: opts.name ?? `d${tag()}.example`,
          ...(opts.deleted ? { isDeleted: true, deletedAt: new Date() } : {}),
        })
        .returning(['id', 'name', 'reportToken', 'userId'])
        .executeTakeFirstOrThrow();
      if (opts.failureReports !== undefined) await db.insertInto('mailFlowSettings').values({ domainId: row.id, failureReports: opts.failureReports }).execute();
      return row;
    },
  };
}
