import {
  AlertType,
  deliverAlertJobId,
  deliveryJobOptions,
  features,
  integrationDelivery,
  JobName,
  type AlertEvent,
} from '@sendwell/contracts';
import type { Database } from '@sendwell/db';
import { AlertStore, queueAlertEvents } from '@sendwell/scan-engine';
import { OutboundError, SystemCounter, type Logger, type Queues, type SystemCounters } from '@sendwell/server-kit';
import { AlertDeliveryRepository, type AlertToFanOut } from './alert-delivery.repository.js';
import { IntegrationRepository } from '../integrations/integration.repository.js';
import { WebhookEndpointRepository } from '../integrations/webhook-endpoint.repository.js';
import { alertMessage } from './alert-message.js';
import { webhookChannel, webhookChannelId, type ChannelTargets } from './channel-targets.js';
import type { ChannelSender } from './channels/channel-sender.js';

export type DeliveryOutcome =
  | { sent: true }
  | { sent: false; skipped: 'already-sent' | 'no-delivery-row' | 'channel-gone' | 'domain-deleted' }
  | { sent: false; error: string; permanent: boolean };

/** How long an alert event may wait for its own fan-out job before the sweep queues it. */
export const SWEEP_GRACE_MS = 60_000;

export interface NotifyServiceDeps {
  db: Database;
  queues: Queues;
  targets: ChannelTargets;
  sender: ChannelSender;
  appUrl: string;
  logger: Logger;
  /** The first retry's delay; later ones back off from it (default: the contracts' delivery options). */
  retryBaseMs?: number;
  clock?: () => Date;
  /** The administrator's running figures: deliveries sent are counted there. */
  counters?: SystemCounters;
}

/**
 * Alert delivery, the `notify` queue's work:
 * - fan-out: an alert event → the channels its owner's plan and preferences allow, a delivery row and
 *   a job for each;
 * - delivery: one job sends one event to one channel and records the outcome on the row (and on the
 *   integration's or webhook's delivery log); a row already `sent` is never sent again;
 * - sweep: events whose fan-out job was lost.
 */
export class NotifyService {
  private readonly deliveries: AlertDeliveryRepository;
  private readonly integrations: IntegrationRepository;
  private readonly webhooks: WebhookEndpointRepository;

  private readonly db: Database;
  private readonly queues: Queues;
  private readonly targets: ChannelTargets;
  private readonly sender: ChannelSender;
  private readonly appUrl: string;
  private readonly logger: Logger;
  private readonly retryBaseMs: number;
  private readonly clock: () => Date;
  private readonly counters: SystemCounters | undefined;

  constructor({ db, queues, targets, sender, appUrl, logger, retryBaseMs = deliveryJobOptions.backoff.delay, clock = () => new Date(), counters }: NotifyServiceDeps) {
    this.db = db;
    this.queues = queues;
    this.targets = targets;
    this.sender = sender;
    this.appUrl = appUrl;
    this.logger = logger;
    this.retryBaseMs = retryBaseMs;
    this.clock = clock;
    this.counters = counters;
    this.deliveries = new AlertDeliveryRepository(db);
    this.integrations = new IntegrationRepository(db);
    this.webhooks = new WebhookEndpointRepository(db);
  }

  /** The channels one alert event goes to, by plan rules and preferences (muted types go nowhere). */
  channelsFor(alert: AlertToFanOut): Array<{ channel: string; state: 'pending' | 'digest' }> {
    const prefs = alert.preferences;
    if ((prefs.mutedTypes as string[]).includes(alert.type)) return [];
    const channels: Array<{ channel: string; state: 'pending' | 'digest' }> = [];
    if (features.alertEmails(alert.planType) && prefs.emailAlerts) channels.push({ channel: 'email', state: prefs.digest ? 'digest' : 'pending' });
    // Marketing platforms hold the domains' health, which only a status change alters.
    const marketing = features.marketingIntegrations(alert.planType) && alert.type === AlertType.StatusChange;
    if (features.chatIntegrations(alert.planType)) {
      for (const service of alert.services) {
        if (integrationDelivery[service] === 'alerts' || (marketing && integrationDelivery[service] === 'health-tag')) channels.push({ channel: service, state: 'pending' });
      }
    }
    if (features.customWebhooks(alert.planType)) for (const id of alert.webhookIds) channels.push({ channel: webhookChannel(id), state: 'pending' });
    return channels;
  }

  /** Fan-out of one event. Safe to repeat: rows exist once, and delivery job ids are per alert, event and channel. */
  async fanOut(alertId: number, event: AlertEvent): Promise<{ channels: number; queued: number }> {
    const alert = await this.deliveries.findForFanOut(alertId);
    if (!alert) return { channels: 0, queued: 0 };
    if (alert.domainDeleted || (event === 'resolved' && alert.resolvedAt === null)) {
      await new AlertStore(this.db).markNotified(alertId, event, this.clock());
      return { channels: 0, queued: 0 };
    }
    const channels = this.channelsFor(alert);
    const pending = await this.deliveries.ensurePending(alertId, event, channels);
    await this.queues.addBulk(
      JobName.DeliverAlert,
      pending.map((channel) => ({
        data: { alertId, event, channel },
        opts: {
          ...deliveryJobOptions,
          backoff: { ...deliveryJobOptions.backoff, delay: this.retryBaseMs },
          jobId: deliverAlertJobId(alertId, event, channel),
        },
      })),
    );
    await new AlertStore(this.db).markNotified(alertId, event, this.clock());
    return { channels: channels.length, queued: pending.length };
  }

  /**
   * One attempt of one delivery. `final` tells that no retry follows a failure. The row is marked sent
   * right after the receiver accepted: a worker killed between the two sends again on its retry, with
   * the same event id and idempotency key, so receivers that honour them see it once.
   */
  async deliver(alertId: number, event: AlertEvent, channel: string, final: boolean): Promise<DeliveryOutcome> {
    const alert = await this.deliveries.findDelivery(alertId, event, channel);
    if (!alert) return { sent: false, skipped: 'no-delivery-row' };
    if (alert.deliveryStatus !== 'pending') return { sent: false, skipped: 'already-sent' };
    if (alert.domainDeleted) {
      await this.deliveries.markAttemptFailed(alertId, event, channel, 'The domain was removed.', true);
      return { sent: false, skipped: 'domain-deleted' };
    }
    const target = await this.targets.resolve(alert.userId, alert.email, channel);
    if (!target) {
      await this.deliveries.markAttemptFailed(alertId, event, channel, 'The channel was removed or turned off.', true);
      return { sent: false, skipped: 'channel-gone' };
    }
    const now = this.clock();
    try {
      await this.sender.send(target, alertMessage(alert, event, this.appUrl));
    } catch (error) {
      const permanent = error instanceof OutboundError ? error.permanent : false;
      const reason = error instanceof OutboundError ? error.message : 'the mail server did not accept the message';
      await this.deliveries.markAttemptFailed(alertId, event, channel, reason, final || permanent);
      await this.recordLog(alert.userId, channel, 'failed', reason, now);
      return { sent: false, error: reason, permanent };
    }
    // The delivery and, on its alert's first raised delivery, `is_sent`: together or not at all.
    const marked = await this.db.transaction().execute(async (trx) => {
      const sent = await new AlertDeliveryRepository(trx).markSent(alertId, event, channel, now);
      if (sent && event === 'raised') await new AlertStore(trx).markSent(alertId);
      return sent;
    });
    // Committed: one more delivery sent in the administrator's figures (best effort, never throws).
    if (marked) await this.counters?.add(SystemCounter.DeliveriesSent);
    await this.recordLog(alert.userId, channel, 'sent', null, now);
    return { sent: true };
  }

  private async recordLog(userId: number, channel: string, status: 'sent' | 'failed', error: string | null, at: Date): Promise<void> {
    if (channel === 'email') return;
    const webhookId = webhookChannelId(channel);
    if (webhookId !== null) await this.webhooks.recordDelivery(webhookId, status, error, at);
    else await this.integrations.recordDelivery(userId, channel, status, error, at);
  }

  /** Queues the fan-out of alert events whose own job never ran (lost with Redis, or never added). */
  async sweep(limit = 1000): Promise<{ queued: number }> {
    const events = await this.deliveries.unnotified(this.clock(), SWEEP_GRACE_MS, limit);
    await queueAlertEvents(this.queues, events, this.logger);
    if (events.length > 0) this.logger.warn({ events: events.length }, 'alert events without a fan-out queued by the sweep');
    return { queued: events.length };
  }
}
