import type { Executor } from '@sendwell/db';
import type { NewAlert, OpenAlert } from '../alerts/alert-rules.js';

export class AlertRepository {
  constructor(private readonly db: Executor) {}

  /** The domain's open condition alerts (listings, broken records, SSL faults and expiry thresholds). */
  async openConditions(domainId: number): Promise<OpenAlert[]> {
    const rows = await this.db
      .selectFrom('domainAlerts')
      .select(['id', 'conditionKey'])
      .where('domainId', '=', domainId)
      .where('resolvedAt', 'is', null)
      .where('conditionKey', 'is not', null)
      .execute();
    return rows.map((r) => ({ id: r.id, conditionKey: r.conditionKey as string }));
  }

  async insert(domainId: number, userId: number, alerts: Array<NewAlert & { checkId: number | null }>, createdAt: Date): Promise<number[]> {
    if (alerts.length === 0) return [];
    const rows = await this.db
      .insertInto('domainAlerts')
      .values(
        alerts.map((a) => ({
          domainId,
          userId,
          type: a.type,
          severity: a.severity,
          title: a.title,
          message: a.message,
          details: JSON.stringify(a.details),
          checkId: a.checkId,
          conditionKey: a.conditionKey,
          createdAt,
        })),
      )
      .returning(['id'])
      .execute();
    return rows.map((r) => r.id);
  }

  /** Marks these alerts resolved (those still open); returns the ids it resolved. */
  async resolve(ids: readonly number[], resolvedAt: Date): Promise<number[]> {
    if (ids.length === 0) return [];
    const rows = await this.db
      .updateTable('domainAlerts')
      .set({ resolvedAt })
      .where('id', 'in', ids)
      .where('resolvedAt', 'is', null)
      .returning(['id'])
      .execute();
    return rows.map((r) => r.id);
  }
}
