import { promisify } from 'node:util';
import { gunzip, gzip } from 'node:zlib';
import type { Database } from '@sendwell/db';
import { sql } from 'kysely';

const gzipAsync = promisify(gzip);
const gunzipAsync = promisify(gunzip);

export type IntakeChannel = 'smtp' | 'https' | 'upload';

/** What the SMTP conversation (or the HTTP request) said about a message, kept for diagnosis. */
export interface IntakeEnvelope {
  clientAddress?: string;
  helo?: string;
  mailFrom?: string;
  rcptTo?: string[];
  tls?: boolean;
}

export interface NewIntakeMessage {
  domainId: number | null;
  channel: IntakeChannel;
  envelope: IntakeEnvelope;
  contentType: string | null;
  raw: Uint8Array;
}

export interface StoredIntakeMessage {
  id: number;
  domainId: number | null;
  channel: IntakeChannel;
  contentType: string | null;
  raw: Buffer;
  attempts: number;
}

/**
 * Every message the intake accepts, stored (gzip) before it is queued and before the sender hears 250:
 * a lost job, a dead worker or a restarted Redis loses nothing, because the row stays `queued` until a
 * worker has read it, and the sweep queues such rows again.
 */
export class IntakeMessageRepository {
  constructor(private readonly db: Database) {}

  async store(message: NewIntakeMessage): Promise<number> {
    const rawGz = await gzipAsync(message.raw);
    const row = await this.db
      .insertInto('intakeMessages')
      .values({
        domainId: message.domainId,
        channel: message.channel,
        envelope: JSON.stringify(message.envelope),
        contentType: message.contentType,
        size: message.raw.byteLength,
        rawGz,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return Number(row.id);
  }

  /** The message to read, counting the attempt; undefined when it is gone or was read already. */
  async claim(id: number): Promise<StoredIntakeMessage | undefined> {
    const row = await this.db
      .updateTable('intakeMessages')
      .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
      .where('id', '=', String(id))
      .where('state', '=', 'queued')
      .returning(['id', 'domainId', 'channel', 'contentType', 'rawGz', 'attempts'])
      .executeTakeFirst();
    if (!row) return undefined;
    return {
      id: Number(row.id),
      domainId: row.domainId,
      channel: row.channel as IntakeChannel,
      contentType: row.contentType,
      raw: await gunzipAsync(row.rawGz),
      attempts: row.attempts,
    };
  }

  /** Read: what it held (stored, duplicates) or why it was refused. */
  async finish(id: number, state: 'read' | 'refused', outcome: unknown): Promise<void> {
    await this.db
      .updateTable('intakeMessages')
      .set({ state, outcome: JSON.stringify(outcome), readAt: sql<Date>`now()` })
      .where('id', '=', String(id))
      .execute();
  }

  /** Messages still unread this long after they arrived (their job was lost or keeps failing), oldest first. */
  async unreadSince(olderThanMs: number, limit: number): Promise<number[]> {
    const rows = await this.db
      .selectFrom('intakeMessages')
      .select('id')
      .where('state', '=', 'queued')
      .where('receivedAt', '<', sql<Date>`now() - make_interval(secs => ${olderThanMs / 1000})`)
      .orderBy('receivedAt')
      .limit(limit)
      .execute();
    return rows.map((r) => Number(r.id));
  }
}
