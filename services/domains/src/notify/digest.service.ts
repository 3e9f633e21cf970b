import type { Database } from '@sendwell/db';
import { SystemCounter, type Logger, type Mailer, type SystemCounters } from '@sendwell/server-kit';
import { AlertDeliveryRepository } from './alert-delivery.repository.js';
import { alertMessage, type AlertMessage } from './alert-message.js';
import { digestMail } from './channels/email.js';

/**
 * The daily digest: for each user whose alert emails wait as `digest`, one mail listing them, then
 * the rows marked sent. A user whose mail fails keeps their rows for the next run.
 */
export class DigestService {
  private readonly deliveries: AlertDeliveryRepository;

  constructor(
    db: Database,
    private readonly mailer: Mailer,
    private readonly appUrl: string,
    private readonly logger: Logger,
    /** The administrator's running figures: a digest's deliveries count as sent, as a channel's do. */
    private readonly counters?: SystemCounters,
    private readonly clock: () => Date = () => new Date(),
  ) {
    this.deliveries = new AlertDeliveryRepository(db);
  }

  async run(): Promise<{ users: number; mails: number; alerts: number }> {
    const waiting = await this.deliveries.digestsWaiting(50_000);
    const result = { users: waiting.size, mails: 0, alerts: 0 };
    for (const [userId, items] of waiting) {
      const messages: AlertMessage[] = [];
      let email: string | null = null;
      for (const item of items) {
        const alert = await this.deliveries.findAlert(item.alertId);
        if (!alert || alert.domainDeleted) continue;
        email = alert.email;
        messages.push(alertMessage(alert, item.event, this.appUrl));
      }
      try {
        if (email && messages.length > 0) {
          await this.mailer.send(digestMail(email, messages, `${this.appUrl}/settings?tab=notifications`));
          result.mails++;
        }
        const sent = await this.deliveries.markDigestSent(items, this.clock());
        result.alerts += sent;
        if (sent > 0) await this.counters?.add(SystemCounter.DeliveriesSent, sent);
      } catch (err) {
        this.logger.warn({ err, userId }, 'digest mail failed; kept for the next run');
      }
    }
    return result;
  }
}
