import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import type { MailTestSession } from '@sendwell/contracts';
import { withUserLimitLock, type Executor, type InboxPlacementTests, type Selectable, type UserLimit } from '@sendwell/db';

const gzipAsync = promisify(gzip);

/** The columns a test is answered with (never the raw message). */
const ANSWERED = ['id', 'testId', 'status', 'createdAt', 'expiresAt', 'receivedAt', 'fromEmail', 'subject', 'score', 'session', 'results', 'error'] as const;
export type MailTestRow = Pick<Selectable<InboxPlacementTests>, (typeof ANSWERED)[number]>;

/** The per-user lock the daily count and the insert run under. */
const MAIL_TESTS_LIMIT: UserLimit = 'mail-tests';

export interface ReceivedMessage {
  session: MailTestSession;
  raw: Uint8Array;
  receivedAt: Date;
}

/** `inbox_placement_tests`: one test, its address token, the received message and (the scanner's) analysis. */
export class MailTestRepository {
  constructor(private readonly db: Executor) {}

  /**
   * A new waiting test, unless the user already created `quota` since `dayStart`: the count and the
   * insert hold the user's mail-tests lock, so requests at once cannot together pass the quota
   * (call it on the pool: it opens its own transaction).
   */
  createWithinQuota(input: { userId: number; token: string; createdAt: Date; expiresAt: Date; dayStart: Date; quota: number }): Promise<MailTestRow | null> {
    return withUserLimitLock(this.db, MAIL_TESTS_LIMIT, input.userId, async (trx) => {
      if ((await new MailTestRepository(trx).countSince(input.userId, input.dayStart)) >= input.quota) return null;
      return trx
        .insertInto('inboxPlacementTests')
        .values({ userId: input.userId, testId: input.token, createdAt: input.createdAt, expiresAt: input.expiresAt })
        .returning(ANSWERED)
        .executeTakeFirstOrThrow();
    });
  }

  async countSince(userId: number, since: Date): Promise<number> {
    const row = await this.db
      .selectFrom('inboxPlacementTests')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('userId', '=', userId)
      .where('createdAt', '>=', since)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** The user's tests created since `since`, newest first. */
  listSince(userId: number, since: Date): Promise<MailTestRow[]> {
    return this.db
      .selectFrom('inboxPlacementTests')
      .select(ANSWERED)
      .where('userId', '=', userId)
      .where('createdAt', '>=', since)
      .orderBy('createdAt', 'desc')
      .orderBy('id', 'desc')
      .execute();
  }

  findOwned(userId: number, id: number): Promise<MailTestRow | undefined> {
    return this.db.selectFrom('inboxPlacementTests').select(ANSWERED).where('id', '=', id).where('userId', '=', userId).executeTakeFirst();
  }

  /** The id of the test whose address takes a message now: waiting and not expired. */
  async findOpenByToken(token: string, now = new Date()): Promise<number | undefined> {
    const row = await this.db
      .selectFrom('inboxPlacementTests')
      .select('id')
      .where('testId', '=', token)
      .where('status', '=', 'waiting')
      .where('expiresAt', '>', now)
      .executeTakeFirst();
    return row?.id;
  }

  /** Stores the message (gzip) and the session, only while the test still waits: false when another message got there first. */
  async markReceived(id: number, message: ReceivedMessage): Promise<boolean> {
    const rawGz = await gzipAsync(message.raw);
    const result = await this.db
      .updateTable('inboxPlacementTests')
      .set({ status: 'received', session: JSON.stringify(message.session), rawGz, receivedAt: message.receivedAt })
      .where('id', '=', id)
      .where('status', '=', 'waiting')
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  /** Tests received before `before` and still not analysed, oldest first, with the analyses started so far. */
  receivedBefore(before: Date, limit: number): Promise<{ id: number; attempts: number }[]> {
    return this.db
      .selectFrom('inboxPlacementTests')
      .select(['id', 'attempts'])
      .where('status', '=', 'received')
      .where('receivedAt', '<', before)
      .orderBy('receivedAt')
      .limit(limit)
      .execute();
  }

  /** Gives a received test up with `error`; false when it was analysed (or failed) meanwhile. */
  async failReceived(id: number, error: string, now = new Date()): Promise<boolean> {
    const result = await this.db
      .updateTable('inboxPlacementTests')
      .set({ status: 'failed', error, completedAt: now, rawGz: null })
      .where('id', '=', id)
      .where('status', '=', 'received')
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  /** Deletes up to `limit` tests created before `before`; says how many. */
  async deleteCreatedBefore(before: Date, limit: number): Promise<number> {
    const result = await this.db
      .deleteFrom('inboxPlacementTests')
      .where('id', 'in', (eb) => eb.selectFrom('inboxPlacementTests').select('id').where('createdAt', '<', before).limit(limit))
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
