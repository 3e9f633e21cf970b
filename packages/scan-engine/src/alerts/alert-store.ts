import type { AlertEvent } from '@sendwell/contracts';
import type { Executor } from '@sendwell/db';
import type { AlertedDomain, NewAlert, OpenAlert } from './alert-types.js';

/**
 * Every write of `domain_alerts`: raised and resolved by the engine's own recording, by mail flow and
 * by the sender requirements (inside the caller's transaction, which holds the domain row), read and
 * delivered by the domains service. Bound to an executor, so it joins whatever transaction it is given.
 */
export class AlertStore {
  constructor(private readonly db: Executor) {}

  /** The domain's open condition alerts. */
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

  /**
   * Inserts the alerts; answers their ids in order, null for a condition already open (the partial
   * unique index on open conditions makes a racing second raise a no-op rather than a duplicate).
   */
  async raise(domain: AlertedDomain, alerts: ReadonlyArray<NewAlert & { checkId?: number | null; scanId?: string | null }>, createdAt: Date): Promise<Array<number | null>> {
    const ids: Array<number | null> = [];
    for (const a of alerts) {
      const row = await this.db
        .insertInto('domainAlerts')
        .values({
          domainId: domain.domainId,
          userId: domain.userId,
          type: a.type,
          severity: a.severity,
          title: a.title,
          message: a.message,
          details: JSON.stringify(a.details),
          checkId: a.checkId ?? null,
          scanId: a.scanId ?? null,
          conditionKey: a.conditionKey,
          createdAt,
        })
        .onConflict((oc) => oc.columns(['domainId', 'conditionKey']).where('resolvedAt', 'is', null).where('conditionKey', 'is not', null).doNothing())
        .returning('id')
        .executeTakeFirst();
      ids.push(row?.id ?? null);
    }
    return ids;
  }

  /** Marks these alerts resolved (those still open); answers the ids it resolved. */
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

  /** True when the alert exists and belongs to the user (marking an already read alert is fine). */
  async markRead(userId: number, id: number): Promise<boolean> {
    const result = await this.db.updateTable('domainAlerts').set({ isRead: true }).where('id', '=', id).where('userId', '=', userId).executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  /** Every unread alert of the user, including those of removed domains; answers how many changed. */
  async markAllRead(userId: number): Promise<number> {
    const result = await this.db.updateTable('domainAlerts').set({ isRead: true }).where('userId', '=', userId).where('isRead', '=', false).executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  /** The event's fan-out ran: the notify sweep no longer looks at it. */
  async markNotified(alertId: number, event: AlertEvent, at: Date): Promise<void> {
    const column = event === 'raised' ? 'notifiedAt' : 'resolutionNotifiedAt';
    await this.db.updateTable('domainAlerts').set({ [column]: at }).where('id', '=', alertId).execute();
  }

  /** The alert reached at least one channel (`is_sent`, shown on the alerts screen). */
  async markSent(alertId: number): Promise<void> {
    await this.db.updateTable('domainAlerts').set({ isSent: true }).where('id', '=', alertId).where('isSent', '=', false).execute();
  }
}

