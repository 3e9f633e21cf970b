import type { Database, Executor } from '@sendwell/db';
import type { Logger } from '@sendwell/server-kit';
import type Stripe from 'stripe';
import { entitlementOf, type Entitlement } from '../plan/entitlement.js';
import { BillingUserRepository, type BillingUser } from '../repositories/billing-user.repository.js';

const ENDED = new Set<Stripe.Subscription.Status>(['canceled', 'incomplete_expired']);
const ENTITLED = new Set<Stripe.Subscription.Status>(['active', 'trialing', 'past_due']);

/** Which of a customer's subscriptions is "theirs": one that pays first, then one awaiting payment, newest first. */
function preferred(subs: Stripe.Subscription[]): Stripe.Subscription | null {
  const newest = [...subs].sort((a, b) => b.created - a.created);
  return newest.find((s) => ENTITLED.has(s.status)) ?? newest.find((s) => !ENDED.has(s.status)) ?? newest[0] ?? null;
}

/**
 * The user's plan as Stripe has it. Every path that changes a plan (webhooks, the sync call, a plan
 * change) ends here: it reads the subscription's current state from Stripe, never an event's copy,
 * so deliveries in any order, or twice, leave the same plan.
 */
export class EntitlementService {
  constructor(
    private readonly db: Database,
    private readonly stripe: Stripe,
    private readonly logger: Logger,
  ) {}

  /** The user's subscription: the one recorded unless it ended, else the customer's preferred one. */
  async subscriptionOf(user: Pick<BillingUser, 'stripeCustomerId' | 'stripeSubscriptionId'>): Promise<Stripe.Subscription | null> {
    let recorded: Stripe.Subscription | null = null;
    if (user.stripeSubscriptionId) {
      recorded = await this.stripe.subscriptions.retrieve(user.stripeSubscriptionId);
      if (!ENDED.has(recorded.status)) return recorded;
    }
    if (!user.stripeCustomerId) return recorded;
    const { data } = await this.stripe.subscriptions.list({ customer: user.stripeCustomerId, status: 'all', limit: 20 });
    return preferred(recorded ? [recorded, ...data.filter((s) => s.id !== recorded.id)] : data);
  }

  /** Re-reads the user's subscription and writes the plan it gives; the caller holds the user's row lock. */
  async syncLocked(trx: Executor, user: BillingUser): Promise<{ entitlement: Entitlement; subscription: Stripe.Subscription | null }> {
    const subscription = await this.subscriptionOf(user);
    const entitlement = entitlementOf(subscription);
    await new BillingUserRepository(trx).applyPlan(user.id, {
      planType: entitlement.planType,
      paidCurrency: entitlement.planType === 'free' ? null : entitlement.currency,
      subscriptionId: subscription?.id ?? user.stripeSubscriptionId,
    });
    if (entitlement.planType !== user.planType) {
      this.logger.info({ userId: user.id, from: user.planType, to: entitlement.planType, status: entitlement.status }, 'plan changed');
    }
    return { entitlement, subscription };
  }

  /** The same, in a transaction of its own with the user's row locked. */
  sync(userId: number): Promise<{ entitlement: Entitlement; subscription: Stripe.Subscription | null } | null> {
    return this.db.transaction().execute(async (trx) => {
      const user = await new BillingUserRepository(trx).lockById(userId);
      return user ? this.syncLocked(trx, user) : null;
    });
  }
}
