import type { Executor } from '@sendwell/db';

const ALERT_COLUMNS = [
  'domainAlerts.id',
  'domainAlerts.domainId',
  'domainAlerts.userId',
  'domainAlerts.type',
  'domainAlerts.severity',
  'domainAlerts.title',
  'domainAlerts.message',
  'domainAlerts.details',
  'domainAlerts.checkId',
  'domainAlerts.isRead',
  'domainAlerts.isSent',
  'domainAlerts.resolvedAt',
  'domainAlerts.createdAt',
  'domains.name as domainName',
] as const;

/** Domain alerts are written by the scanner; this service reads them and marks them read. */
export class AlertRepository {
  constructor(private readonly db: Executor) {}

  private base() {
    return this.db.selectFrom('domainAlerts').innerJoin('domains', 'domains.id', 'domainAlerts.domainId').select(ALERT_COLUMNS);
  }

  /**
   * A user's alerts, newest first (the domain_alerts (user_id, created_at desc) index), leaving out
   * those of domains the user removed: they reappear if the domain is restored.
   */
  async listForUser(userId: number, { limit, unreadOnly }: { limit: number; unreadOnly: boolean }) {
    let query = this.base().where('domainAlerts.userId', '=', userId).where('domains.isDeleted', '=', false);
    if (unreadOnly) query = query.where('domainAlerts.isRead', '=', false);
    return query.orderBy('domainAlerts.createdAt', 'desc').orderBy('domainAlerts.id', 'desc').limit(limit).execute();
  }

  async findForUser(userId: number, id: number) {
    return this.base().where('domainAlerts.id', '=', id).where('domainAlerts.userId', '=', userId).executeTakeFirst();
  }

  /** True when the alert exists and belongs to the user (marking an already read alert is fine). */
  async markRead(userId: number, id: number): Promise<boolean> {
    const result = await this.db
      .updateTable('domainAlerts')
      .set({ isRead: true })
      .where('id', '=', id)
      .where('userId', '=', userId)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  /** Every unread alert of the user, including those of removed domains; answers how many changed. */
  async markAllRead(userId: number): Promise<number> {
    const result = await this.db
      .updateTable('domainAlerts')
      .set({ isRead: true })
      .where('userId', '=', userId)
      .where('isRead', '=', false)
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }
}

export type AlertRow = Awaited<ReturnType<AlertRepository['listForUser']>>[number];
