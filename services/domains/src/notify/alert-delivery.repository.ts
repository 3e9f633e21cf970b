import { alertTypeSchema, defaultNotificationPreferences, type AlertEvent, type IntegrationService, type NotificationPreferences } from '@sendwell/contracts';
import { sql, type Executor } from '@sendwell/db';
import type { AlertRow } from './alert-message.js';

export type DeliveryState = 'pending' | 'sent' | 'failed' | 'digest';

export interface AlertToDeliver extends AlertRow {
  userId: number;
  email: string;
  planType: string;
  domainDeleted: boolean;
}

/** An alert with what its fan-out decides by: the owner's preferences and enabled channels. */
export interface AlertToFanOut extends AlertToDeliver {
  preferences: NotificationPreferences;
  services: IntegrationService[];
  webhookIds: number[];
}

/** The delivery side of domain alerts: fan-out marks, one row per alert, event and channel. */
export class AlertDeliveryRepository {
  constructor(private readonly db: Executor) {}

  async findAlert(alertId: number): Promise<AlertToDeliver | undefined> {
    return this.alertQuery().where('domainAlerts.id', '=', alertId).executeTakeFirst();
  }

  private alertQuery() {
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
      ]);
  }

  /** The alert, its owner's preferences and enabled integrations and webhooks, in one round trip. */
  async findForFanOut(alertId: number): Promise<AlertToFanOut | undefined> {
    const row = await this.alertQuery()
      .leftJoin('notificationPreferences as prefs', 'prefs.userId', 'domainAlerts.userId')
      .select([
        'prefs.emailAlerts',
        'prefs.digest',
        'prefs.mutedTypes',
        'prefs.reportEmails',
        sql<string[] | null>`(select array_agg(i.service) from integrations i where i.user_id = domain_alerts.user_id and i.is_enabled)`.as('services'),
        sql<number[] | null>`(select array_agg(w.id order by w.id) from webhook_endpoints w where w.user_id = domain_alerts.user_id and w.is_enabled)`.as('webhookIds'),
      ])
      .where('domainAlerts.id', '=', alertId)
      .executeTakeFirst();
    if (!row) return undefined;
    const { emailAlerts, digest, mutedTypes, reportEmails, services, webhookIds, ...alert } = row;
    const preferences =
      emailAlerts === null
        ? { ...defaultNotificationPreferences }
        : { emailAlerts, digest: digest ?? false, reportEmails: reportEmails ?? true, mutedTypes: (mutedTypes ?? []).filter((t) => alertTypeSchema.safeParse(t).success) as NotificationPreferences['mutedTypes'] };
    return { ...alert, preferences, services: (services ?? []) as IntegrationService[], webhookIds: webhookIds ?? [] };
  }

  /** One delivery's state with its alert, in one round trip (the delivery path's first read). */
  async findDelivery(alertId: number, event: AlertEvent, channel: string): Promise<(AlertToDeliver & { deliveryStatus: DeliveryState }) | undefined> {
    const row = await this.alertQuery()
      .innerJoin('alertDeliveries', 'alertDeliveries.alertId', 'domainAlerts.id')
      .select('alertDeliveries.status as deliveryStatus')
      .where('domainAlerts.id', '=', alertId)
      .where('alertDeliveries.event', '=', event)
      .where('alertDeliveries.channel', '=', channel)
      .executeTakeFirst();
    return row ? { ...row, deliveryStatus: row.deliveryStatus as DeliveryState } : undefined;
  }

  /**
   * Creates the rows of the channels chosen for this event (a repeated fan-out leaves existing rows as
   * they are) and answers every channel of the event still pending, in one statement: the new rows come
   * from the insert, the earlier ones from the table (a statement does not see its own inserts).
   */
  async ensurePending(alertId: number, event: AlertEvent, channels: ReadonlyArray<{ channel: string; state: 'pending' | 'digest' }>): Promise<string[]> {
    const rows = channels.length
      ? sql`(values ${sql.join(channels.map((c) => sql`(${c.channel}::text, ${c.state}::text)`))})`
      : sql`(select null::text, null::text where false)`;
    const result = await sql<{ channel: string }>`with wanted(channel, status) as ${rows},
      inserted as (
        insert into alert_deliveries (alert_id, event, channel, status)
        select ${alertId}, ${event}, channel, status from wanted
        on conflict (alert_id, event, channel) do nothing
        returning channel, status
      )
      select channel from inserted where status = 'pending'
      union
      select channel from alert_deliveries where alert_id = ${alertId} and event = ${event} and status = 'pending'`.execute(this.db);
    return result.rows.map((r) => r.channel);
  }

  /** The delivery sent; whether there was one to mark. */
  async markSent(alertId: number, event: AlertEvent, channel: string, at: Date): Promise<boolean> {
    const result = await this.db
      .updateTable('alertDeliveries')
      .set((eb) => ({ status: 'sent', sentAt: at, lastError: null, attempts: eb('attempts', '+', 1) }))
      .where('alertId', '=', alertId)
      .where('event', '=', event)
      .where('channel', '=', channel)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
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
