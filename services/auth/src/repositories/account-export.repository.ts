import { sql, type Executor } from '@sendwell/db';

/**
 * What `GET /api/user/export` reads of the user's rows in the tables other services write (one
 * database, read-only here). Each query names its columns, so a secret column (an integration's
 * config, a webhook's sealed secret) is never read, and each is scoped to the one user.
 */
export class AccountExportRepository {
  constructor(private readonly db: Executor) {}

  /** Deleted domains too, while they are kept for restoring. */
  domains(userId: number) {
    return this.db
      .selectFrom('domains')
      .select(['id', 'name', 'status', 'scanCount', 'lastScan', 'createdAt', 'deletedAt'])
      .where('userId', '=', userId)
      .orderBy('id')
      .execute();
  }

  scanSummaries(userId: number) {
    return this.db
      .selectFrom('scans')
      .innerJoin('domains', 'domains.id', 'scans.domainId')
      .select([
        'domains.id as domainId',
        'domains.name as domainName',
        sql<number>`count(*)::int`.as('scans'),
        sql<number>`count(*) filter (where scans.status = 'completed')::int`.as('completed'),
        sql<number>`count(*) filter (where scans.status = 'failed')::int`.as('failed'),
        sql<Date | null>`min(scans.created_at)`.as('firstScanAt'),
        sql<Date | null>`max(scans.created_at)`.as('lastScanAt'),
      ])
      .where('domains.userId', '=', userId)
      .groupBy(['domains.id', 'domains.name'])
      .orderBy('domains.id')
      .execute();
  }

  alerts(userId: number) {
    return this.db
      .selectFrom('domainAlerts')
      .select(['id', 'domainId', 'type', 'severity', 'title', 'message', 'isRead', 'resolvedAt', 'createdAt'])
      .where('userId', '=', userId)
      .orderBy('id')
      .execute();
  }

  integrations(userId: number) {
    return this.db
      .selectFrom('integrations')
      .select(['service', 'isEnabled', 'createdAt', 'updatedAt'])
      .where('userId', '=', userId)
      .orderBy('service')
      .execute();
  }

  webhooks(userId: number) {
    return this.db
      .selectFrom('webhookEndpoints')
      .select(['id', 'url', 'description', 'isEnabled', 'createdAt'])
      .where('userId', '=', userId)
      .orderBy('id')
      .execute();
  }

  /** The list only: the documents themselves are downloads of their own. */
  reports(userId: number) {
    return this.db
      .selectFrom('reports')
      .select(['id', 'domainId', 'type', 'status', 'createdAt'])
      .where('userId', '=', userId)
      .orderBy('id')
      .execute();
  }
}
