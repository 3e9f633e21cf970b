import { isPaidPlan, type Currency, type PaidPlan, type PlanType } from '@sendwell/contracts';
import type Stripe from 'stripe';
import { planOfPrice } from '../stripe/catalogue.js';

/** Stripe statuses in which the customer keeps the plan: paid, on trial, or retrying a failed renewal. */
const ENTITLED_STATUSES = new Set<Stripe.Subscription.Status>(['active', 'trialing', 'past_due']);

/**
 * A plan change to a lower or other plan waits for the next billing cycle: the subscription's price
 * changes at once (so the renewal charges the new one), and its metadata keeps the plan paid for and
 * the period end it lasts to. Everything is read from Stripe, so any event, in any order, and the
 * sync call arrive at the same answer.
 */
export const PAID_PLAN_KEY = 'sendwell_paid_plan';
export const PAID_UNTIL_KEY = 'sendwell_paid_plan_until';

export interface Entitlement {
  planType: PlanType;
  /** Stripe's status of the subscription; null without one. */
  status: Stripe.Subscription.Status | null;
  /** The plan the next period brings, when it differs. */
  pendingPlan: PaidPlan | null;
  currency: Currency | null;
  periodEnd: number | null;
  cancelAtPeriodEnd: boolean;
}

export const FREE: Entitlement = { planType: 'free', status: null, pendingPlan: null, currency: null, periodEnd: null, cancelAtPeriodEnd: false };

export function currentItem(sub: Stripe.Subscription): Stripe.SubscriptionItem | undefined {
  return sub.items.data[0];
}

/** The plan a subscription gives its customer now. */
export function entitlementOf(sub: Stripe.Subscription | null): Entitlement {
  if (!sub) return FREE;
  const item = currentItem(sub);
  const priced = planOfPrice(item?.price);
  if (!item || !priced || !ENTITLED_STATUSES.has(sub.status)) return { ...FREE, status: sub.status };

  const kept = sub.metadata[PAID_PLAN_KEY];
  const keptUntil = Number(sub.metadata[PAID_UNTIL_KEY] ?? 0);
  // Still in the period the kept plan was paid for: the renewal moves current_period_start to its end.
  const waiting = kept !== undefined && isPaidPlan(kept) && kept !== priced.plan && item.current_period_start < keptUntil;
  return {
    planType: waiting ? kept : priced.plan,
    status: sub.status,
    pendingPlan: waiting ? priced.plan : null,
    currency: priced.currency,
    periodEnd: item.current_period_end,
    cancelAtPeriodEnd: sub.cancel_at_period_end,
  };
}
