import { INVALID_EVENT_MESSAGE, INVALID_SIGNATURE_MESSAGE } from '@sendwell/contracts';
import type { Database } from '@sendwell/db';
import { badRequest, type Logger, type Mailer } from '@sendwell/server-kit';
import type Stripe from 'stripe';
import { pastDueMail } from '../mail/past-due.js';
import { BillingUserRepository } from '../repositories/billing-user.repository.js';
import type { EntitlementService } from './entitlement.service.js';

/** Stripe's default: a signature older than this is refused, so a captured delivery cannot be replayed later. */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

/** Events after which a customer's plan may have changed. Any other type is acknowledged and ignored. */
const PLAN_EVENTS = new Set([
  'customer.subscription.created',
  'customer.subscription.updated',
  'customer.subscription.deleted',
  'customer.subscription.paused',
  'customer.subscription.resumed',
  'invoice.paid',
  'invoice.payment_succeeded',
  'invoice.payment_failed',
]);

export type WebhookOutcome = 'processed' | 'duplicate' | 'ignored';

function customerOf(object: { customer?: string | { id: string } | null }): string | null {
  const c = object.customer;
  return typeof c === 'string' ? c : (c?.id ?? null);
}

/**
 * POST /api/webhooks/stripe. The signature is checked on the raw body. Each event is processed once:
 * its id is inserted into `stripe_events` in the transaction that applies it, so concurrent deliveries
 * of one event wait for the first and then find it done, and a failure rolls both back for Stripe to
 * retry. The plan is re-read from Stripe (EntitlementService), so the order of events does not matter.
 */
export class WebhookService {
  constructor(
    private readonly db: Database,
    private readonly stripe: Stripe,
    private readonly webhookSecret: string,
    private readonly entitlements: EntitlementService,
    private readonly mailer: Mailer,
    private readonly appUrl: string,
    private readonly logger: Logger,
  ) {}

  verify(payload: Buffer, signature: string | undefined): Stripe.Event {
    let event: Stripe.Event;
    try {
      event = this.stripe.webhooks.constructEvent(payload, signature ?? '', this.webhookSecret, SIGNATURE_TOLERANCE_SECONDS);
    } catch {
      throw badRequest(INVALID_SIGNATURE_MESSAGE);
    }
    // Signed is not the same as well formed (a signed `{}` parses): check the fields this service reads.
    const e = event as Partial<Stripe.Event> | null;
    if (typeof e?.id !== 'string' || e.id === '' || typeof e.type !== 'string' || typeof e.data?.object !== 'object' || e.data.object === null) {
      throw badRequest(INVALID_EVENT_MESSAGE);
    }
    return event;
  }

  async handle(event: Stripe.Event): Promise<WebhookOutcome> {
    return this.db.transaction().execute(async (trx) => {
      const recorded = await trx
        .insertInto('stripeEvents')
        .values({ id: event.id, type: event.type })
        .onConflict((oc) => oc.column('id').doNothing())
        .returning('id')
        .executeTakeFirst();
      if (!recorded) return 'duplicate';
      if (!PLAN_EVENTS.has(event.type)) return 'ignored';

      const object = event.data.object as { customer?: string | { id: string } | null };
      const customer = customerOf(object);
      const user = customer ? await new BillingUserRepository(trx).lockByCustomer(customer) : undefined;
      if (!user) {
        this.logger.warn({ eventId: event.id, type: event.type }, 'Stripe event for a customer no user has; ignored');
        return 'ignored';
      }
      const { entitlement } = await this.entitlements.syncLocked(trx, user);

      // A failed renewal: the owner hears of it while Stripe retries. Sent inside the transaction, so a
      // mail that fails rolls the event back and Stripe's retry sends it again.
      if (event.type === 'invoice.payment_failed') {
        const invoice = event.data.object as Stripe.Invoice;
        if (invoice.billing_reason === 'subscription_cycle' && entitlement.status === 'past_due') {
          await this.mailer.send(pastDueMail(user, entitlement.planType, this.appUrl));
          this.logger.info({ userId: user.id, invoice: invoice.id }, 'renewal failed: past-due mail sent');
        }
      }
      return 'processed';
    });
  }
}
