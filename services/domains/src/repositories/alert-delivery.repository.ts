import type { AlertEvent } from '@sendwell/contracts';
import { sql, type Executor } from '@sendwell/db';
import type { AlertRow } from '../notify/alert-message.js';

export type DeliveryState = 'pending' | 'sent' | 'failed' | 'digest';

export interface AlertToDeliver extends AlertRow {
  userId: number;
  email: string;
  planType: string;
  domainDeleted: boolean;
}

/** The delivery side of domain alerts: fan-out marks, one row per alert, event and channel. */
export class AlertDeliveryRepository {
  constructor(private readonly db: Executor) {}

  async findAlert(alertId: number): Promise<AlertToDeliver | undefined> {
    return this.db
      .selectFrom('domainAlerts')
      .innerJoin('domains', 'domains.id', 'domainAlerts.domainId')
      .innerJoin('users', 'users.id', 'domainAlerts.userId')
      .select([
        'domainAlerts.id',
        'domainAlerts.type',
        'domainAlerts.severity',
        'domainAlerts.title',
        'domainAlerts.message',
        'domainAlerts.details',
        'domainAlerts.createdAt',
        'domainAlerts.resolvedAt',
        'domainAlerts.domainId',
        'domainAlerts.userId',
        'domains.name as domainName',
        'domains.isDeleted as domainDeleted',
        'users.email',
        'users.planType',
      ])
      .where('domainAlerts.id', '=', alertId)
      .executeTakeFirst();
  }

  /** Creates the rows of the channels chosen for this event; existing rows (a repeated fan-out) stay as they are. */
  async ensure(alertId: number, event: AlertEvent, channels: ReadonlyArray<{ channel: string; state: 'pending' | 'digest' }>): Promise<void> {
    if (channels.length === 0) return;
    await this.db
      .insertInto('alertDeliveries')
      .values(channels.map((c) => ({ alertId, event, channel: c.channel, status: c.state })))
      .onConflict((oc) => oc.columns(['alertId', 'event', 'channel']).doNothing())
      .execute();
  }

  /** The channels of this event still to be sent (pending, or failed earlier and fanned out again). */
  async pendingChannels(alertId: number, event: AlertEvent): Promise<string[]> {
    const rows = await this.db
      .selectFrom('alertDeliveries')
      .select('channel')
      .where('alertId', '=', alertId)
      .where('event', '=', event)
      .where('status', '=', 'pending')
      .execute();
    return rows.map((r) => r.channel);
  }

  /** One delivery's state: a job finding it `sent` (a retry after a crash past the send) sends nothing. */
  async state(alertId: number, event: AlertEvent, channel: string): Promise<{ status: DeliveryState; attempts: number } | undefined> {
    const row = await this.db
      .selectFrom('alertDeliveries')
      .select(['status', 'attempts'])
      .where('alertId', '=', alertId)
      .where('event', '=', event)
      .where('channel', '=', channel)
      .executeTakeFirst();
    return row ? { status: row.status as DeliveryState, attempts: row.attempts } : undefined;
  }

  async markSent(alertId: number, event: AlertEvent, channel: string, at: Date): Promise<void> {
    await this.db
      .updateTable('alertDeliveries')
      .set((eb) => ({ status: 'sent', sentAt: at, lastError: null, attempts: eb('attempts', '+', 1) }))
      .where('alertId', '=', alertId)
      .where('event', '=', event)
      .where('channel', '=', channel)
      .execute();
    if (event === 'raised') await this.db.updateTable('domainAlerts').set({ isSent: true }).where('id', '=', alertId).where('isSent', '=', false).execute();
  }

  /** One failed attempt; `final` when no retry follows. */
  async markAttemptFailed(alertId: number, event: AlertEvent, channel: string, error: string, final: boolean): Promise<void> {
    await this.db
      .updateTable('alertDeliveries')
      .set((eb) => ({ lastError: error, attempts: eb('attempts', '+', 1), ...(final ? { status: 'failed' } : {}) }))
      .where('alertId', '=', alertId)
      .where('event', '=', event)
      .where('channel', '=', channel)
      .where('status', '=', 'pending')
      .execute();
  }

  async markNotified(alertId: number, event: AlertEvent, at: Date): Promise<void> {
    const column = event === 'raised' ? 'notifiedAt' : 'resolutionNotifiedAt';
    await this.db.updateTable('domainAlerts').set({ [column]: at }).where('id', '=', alertId).execute();
  }

  /**
   * Alert events whose fan-out never ran: raised or resolved more than `graceMs` ago (their job had its
   * chance) and less than a day ago (older news is not worth a message any more).
   */
  async unnotified(now: Date, graceMs: number, limit: number): Promise<Array<{ alertId: number; event: AlertEvent }>> {
    const before = new Date(now.getTime() - graceMs);
    const after = new Date(now.getTime() - 86_400_000);
    const raised = await this.db
      .selectFrom('domainAlerts')
      .select('id')
      .where('notifiedAt', 'is', null)
      .where('createdAt', '<', before)
      .where('createdAt', '>', after)
      .orderBy('createdAt')
      .limit(limit)
      .execute();
    const resolved = await this.db
      .selectFrom('domainAlerts')
      .select('id')
      .where('resolvedAt', 'is not', null)
      .where('resolutionNotifiedAt', 'is', null)
      .where('resolvedAt', '<', before)
      .where('resolvedAt', '>', after)
      .orderBy('resolvedAt')
      .limit(limit)
      .execute();
    return [...raised.map((r) => ({ alertId: r.id, event: 'raised' as const })), ...resolved.map((r) => ({ alertId: r.id, event: 'resolved' as const }))];
  }

  /** Users with digest emails waiting, each with their waiting (alert, event) pairs. */
  async digestsWaiting(limit: number): Promise<Map<number, Array<{ alertId: number; event: AlertEvent }>>> {
    const rows = await this.db
      .selectFrom('alertDeliveries')
      .innerJoin('domainAlerts', 'domainAlerts.id', 'alertDeliveries.alertId')
      .select(['domainAlerts.userId', 'alertDeliveries.alertId', 'alertDeliveries.event'])
      .where('alertDeliveries.status', '=', 'digest')
      .orderBy('alertDeliveries.createdAt')
      .limit(limit)
      .execute();
    const byUser = new Map<number, Array<{ alertId: number; event: AlertEvent }>>();
    for (const r of rows) {
      const list = byUser.get(r.userId) ?? [];
      list.push({ alertId: r.alertId, event: r.event as AlertEvent });
      byUser.set(r.userId, list);
    }
    return byUser;
  }

  /** Marks a user's digest rows sent, those still waiting only (a second run finds none). */
  async markDigestSent(items: ReadonlyArray<{ alertId: number; event: AlertEvent }>, at: Date): Promise<number> {
    if (items.length === 0) return 0;
    const result = await this.db
      .updateTable('alertDeliveries')
      .set({ status: 'sent', sentAt: at })
      .where('channel', '=', 'email')
      .where('status', '=', 'digest')
      .where(sql<boolean>`(alert_id, event) in (${sql.join(items.map((i) => sql`(${i.alertId}, ${i.event})`))})`)
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }
}
