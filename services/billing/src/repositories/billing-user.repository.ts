import type { Currency, PlanType } from '@sendwell/contracts';
import type { Executor } from '@sendwell/db';
import { applyPlanSchedule } from '@sendwell/scan-engine';

const columns = ['id', 'email', 'firstName', 'planType', 'currency', 'currencyLocked', 'stripeCustomerId', 'stripeSubscriptionId'] as const;

export interface BillingUser {
  id: number;
  email: string;
  firstName: string | null;
  planType: string;
  currency: string;
  currencyLocked: boolean;
  stripeCustomerId: string | null;
  stripeSubscriptionId: string | null;
}

/** The billing columns of `users`: the Stripe ids, the plan and the currency. */
export class BillingUserRepository {
  constructor(private readonly db: Executor) {}

  findById(id: number): Promise<BillingUser | undefined> {
    return this.db.selectFrom('users').select(columns).where('id', '=', id).executeTakeFirst();
  }

  /** Locks the row for the rest of the transaction: one plan change at a time per user. */
  lockById(id: number): Promise<BillingUser | undefined> {
    return this.db.selectFrom('users').select(columns).where('id', '=', id).forUpdate().executeTakeFirst();
  }

  lockByCustomer(customerId: string): Promise<BillingUser | undefined> {
    return this.db.selectFrom('users').select(columns).where('stripeCustomerId', '=', customerId).forUpdate().executeTakeFirst();
  }

  async setCustomer(id: number, customerId: string): Promise<void> {
    await this.db.updateTable('users').set({ stripeCustomerId: customerId, updatedAt: new Date() }).where('id', '=', id).execute();
  }

  async setSubscription(id: number, subscriptionId: string): Promise<void> {
    await this.db.updateTable('users').set({ stripeSubscriptionId: subscriptionId, updatedAt: new Date() }).where('id', '=', id).execute();
  }

  /** The account is closing: its Stripe customer and subscription are gone, so webhooks about them find nobody. */
  async clearStripeIds(id: number): Promise<void> {
    await this.db.updateTable('users').set({ stripeCustomerId: null, stripeSubscriptionId: null, updatedAt: new Date() }).where('id', '=', id).execute();
  }

  /**
   * Writes the plan Stripe says the user has, and makes the domains' scans follow it. The currency
   * is locked at the first paid plan (prices and invoices stay in it); a paid plan also carries the
   * subscription's currency, which is the user's own.
   */
  async applyPlan(id: number, plan: { planType: PlanType; paidCurrency: Currency | null; subscriptionId: string | null }): Promise<void> {
    await this.db
      .updateTable('users')
      .set((eb) => ({
        planType: plan.planType,
        stripeSubscriptionId: plan.subscriptionId,
        currencyLocked: plan.paidCurrency ? true : eb.ref('currencyLocked'),
        currency: plan.paidCurrency ?? eb.ref('currency'),
        updatedAt: new Date(),
      }))
      .where('id', '=', id)
      .execute();
    await applyPlanSchedule(this.db, id);
  }
}
