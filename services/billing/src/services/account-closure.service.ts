import type { Database } from '@sendwell/db';
import type { Logger } from '@sendwell/server-kit';
import type Stripe from 'stripe';
import { BillingUserRepository } from '../repositories/billing-user.repository.js';
import { isMissing, withStripe } from '../stripe/errors.js';

/** Statuses after which Stripe charges no more. */
const ENDED: ReadonlySet<Stripe.Subscription.Status> = new Set(['canceled', 'incomplete_expired']);

/**
 * Ends a user's billing before their account is deleted (the auth service asks, with the user's own
 * session): the subscription is cancelled at once, with Stripe's defaults (no proration, no refund),
 * and the Stripe customer, which holds their name and email, is deleted. A Stripe that cannot be
 * reached is a 503, and the auth service then deletes nothing.
 */
export class AccountClosureService {
  constructor(
    private readonly db: Database,
    private readonly stripe: Stripe,
    private readonly logger: Logger,
  ) {}

  async close(userId: number): Promise<void> {
    // The row stays locked until the ids are cleared, so a webhook about this customer waits, then finds nobody.
    await this.db.transaction().execute(async (trx) => {
      const users = new BillingUserRepository(trx);
      const user = await users.lockById(userId);
      if (!user) return;
      if (user.stripeSubscriptionId) await this.cancelSubscription(user.stripeSubscriptionId);
      // Deleting the customer also ends any other subscription it has (an unpaid one, say).
      if (user.stripeCustomerId) await this.deleteCustomer(user.stripeCustomerId);
      await users.clearStripeIds(userId);
      this.logger.info({ userId, hadSubscription: Boolean(user.stripeSubscriptionId), hadCustomer: Boolean(user.stripeCustomerId) }, 'billing closed');
    });
  }

  private async cancelSubscription(id: string): Promise<void> {
    await alreadyGoneIsDone(async () => {
      const subscription = await this.stripe.subscriptions.retrieve(id);
      if (!ENDED.has(subscription.status)) await this.stripe.subscriptions.cancel(id);
    });
  }

  private async deleteCustomer(id: string): Promise<void> {
    await alreadyGoneIsDone(() => this.stripe.customers.del(id));
  }
}

/** A Stripe object that no longer exists is what closing wants: a retried closure finishes instead of failing. */
async function alreadyGoneIsDone(call: () => Promise<unknown>): Promise<void> {
  try {
    await withStripe(call);
  } catch (error) {
    if (!isMissing(error)) throw error;
  }
}
