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
}

export type AlertRow = Awaited<ReturnType<AlertRepository['listForUser']>>[number];
