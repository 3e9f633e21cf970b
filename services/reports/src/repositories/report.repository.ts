/**
 * The reports table (this service owns it) and report_documents, where the built document and its
 * PDF live so that listing reads only the small rows.
 */
import { gunzipSync, gzipSync } from 'node:zlib';
import type { ReportData, ReportDocument } from '@sendwell/contracts';
import { withUserLimitLock, type Database, type Reports, type Selectable } from '@sendwell/db';

const LISTED = ['id', 'userId', 'domainId', 'type', 'status', 'data', 'isPurchased', 'purchaseId', 'createdAt'] as const;
export type ReportRow = Pick<Selectable<Reports>, (typeof LISTED)[number]>;

export interface NewReport {
  userId: number;
  domainId: number;
  type: string;
  data: ReportData;
  period?: string;
}

export class ReportRepository {
  constructor(private readonly db: Database) {}

  listByUser(userId: number): Promise<ReportRow[]> {
    return this.db.selectFrom('reports').select(LISTED).where('userId', '=', userId).orderBy('createdAt', 'desc').orderBy('id', 'desc').execute();
  }

  async countByUser(userId: number): Promise<number> {
    const row = await this.db.selectFrom('reports').select((eb) => eb.fn.countAll<string>().as('n')).where('userId', '=', userId).executeTakeFirstOrThrow();
    return Number(row.n);
  }

  findForUser(id: number, userId: number): Promise<ReportRow | undefined> {
    return this.db.selectFrom('reports').select(LISTED).where('id', '=', id).where('userId', '=', userId).executeTakeFirst();
  }

  find(id: number) {
    return this.db.selectFrom('reports').select([...LISTED, 'period', 'mailedAt']).where('id', '=', id).executeTakeFirst();
  }

  /**
   * Pending rows, inserted only while the user stays within `quota`: the count and the inserts are one
   * transaction under the user's `reports` limit lock, so requests at once cannot together pass the quota.
   */
  async insertWithinQuota(userId: number, reports: NewReport[], quota: number): Promise<{ inserted: ReportRow[]; used: number }> {
    return withUserLimitLock(this.db, 'reports', userId, async (trx) => {
      const row = await trx.selectFrom('reports').select((eb) => eb.fn.countAll<string>().as('n')).where('userId', '=', userId).executeTakeFirstOrThrow();
      const used = Number(row.n);
      const room = Math.max(0, quota - used);
      const accepted = reports.slice(0, room);
      if (accepted.length === 0) return { inserted: [], used };
      const inserted = await trx
        .insertInto('reports')
        .values(accepted.map((r) => ({ userId: r.userId, domainId: r.domainId, type: r.type, status: 'pending', data: JSON.stringify(r.data), period: r.period ?? null })))
        .onConflict((oc) => oc.columns(['domainId', 'period']).where('period', 'is not', null).doNothing())
        .returning(LISTED)
        .execute();
      return { inserted, used: used + inserted.length };
    });
  }

  async delete(id: number, userId: number): Promise<boolean> {
    const res = await this.db.deleteFrom('reports').where('id', '=', id).where('userId', '=', userId).executeTakeFirst();
    return res.numDeletedRows > 0n;
  }

  /** Takes a pending (or retried) report for building; null when it is gone or already completed. */
  claim(id: number): Promise<ReportRow | undefined> {
    return this.db
      .updateTable('reports')
      .set({ status: 'generating', updatedAt: new Date() })
      .where('id', '=', id)
      .where('status', 'in', ['pending', 'generating', 'failed'])
      .returning(LISTED)
      .executeTakeFirst();
  }

  /** The document and PDF stored, and the row completed, in one transaction. */
  async complete(id: number, document: ReportDocument, pdf: Buffer, data: ReportData): Promise<void> {
    const gz = gzipSync(JSON.stringify(document));
    await this.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('reportDocuments')
        .values({ reportId: id, document: gz, pdf })
        .onConflict((oc) => oc.column('reportId').doUpdateSet({ document: gz, pdf }))
        .execute();
      await trx.updateTable('reports').set({ status: 'completed', data: JSON.stringify(data), updatedAt: new Date() }).where('id', '=', id).execute();
    });
  }

  async fail(id: number, data: ReportData): Promise<void> {
    await this.db.updateTable('reports').set({ status: 'failed', data: JSON.stringify(data), updatedAt: new Date() }).where('id', '=', id).execute();
  }

  async document(id: number): Promise<{ document: ReportDocument; pdf: Buffer | null } | null> {
    const row = await this.db.selectFrom('reportDocuments').select(['document', 'pdf']).where('reportId', '=', id).executeTakeFirst();
    if (!row) return null;
    return { document: JSON.parse(gunzipSync(row.document).toString('utf8')) as ReportDocument, pdf: row.pdf };
  }

  async pdf(id: number): Promise<Buffer | null> {
    const row = await this.db.selectFrom('reportDocuments').select(['pdf']).where('reportId', '=', id).executeTakeFirst();
    return row?.pdf ?? null;
  }

  async markMailed(id: number): Promise<boolean> {
    const res = await this.db.updateTable('reports').set({ mailedAt: new Date() }).where('id', '=', id).where('mailedAt', 'is', null).executeTakeFirst();
    return res.numUpdatedRows > 0n;
  }

  /** Reports still pending after `olderThan` (their job lost with a Redis that restarted). */
  async stalePending(olderThan: Date, limit = 500): Promise<number[]> {
    const rows = await this.db
      .selectFrom('reports')
      .select(['id'])
      .where('status', 'in', ['pending', 'generating'])
      .where('updatedAt', '<', olderThan)
      .orderBy('id')
      .limit(limit)
      .execute();
    return rows.map((r) => r.id);
  }
}
