import {
  NO_SUBSCRIPTION_MESSAGE,
  PAID_PLAN_REQUIRED_MESSAGE,
  PAYMENT_METHOD_NOT_FOUND_MESSAGE,
  PLAN_UPDATED_MESSAGE,
  SAME_PLAN_MESSAGE,
  SUBSCRIPTION_SYNCED_MESSAGE,
  currencySchema,
  defaultCurrency,
  features,
  isPaidPlan,
  planLabel,
  type CancelSubscriptionAnswer,
  type CreateSubscriptionAnswer,
  type PaidPlan,
  type PaymentMethod,
  type SetupIntentAnswer,
  type SubscriptionStatusAnswer,
  type SyncSubscriptionAnswer,
  type UpdatePaymentMethodAnswer,
  type UpdateSubscriptionAnswer,
} from '@sendwell/contracts';
import type { Database } from '@sendwell/db';
import { badRequest, forbidden, notFound, type Logger } from '@sendwell/server-kit';
import type Stripe from 'stripe';
import { PAID_PLAN_KEY, PAID_UNTIL_KEY, currentItem, entitlementOf, type Entitlement } from '../plan/entitlement.js';
import { BillingUserRepository, type BillingUser } from '../repositories/billing-user.repository.js';
import type { PriceBook } from '../stripe/catalogue.js';
import { retrieveOr404, withStripe } from '../stripe/errors.js';
import type { EntitlementService } from './entitlement.service.js';

const rank: Record<PaidPlan, number> = { basic: 1, standard: 2, advanced: 3 };
const LIVE = new Set<Stripe.Subscription.Status>(['active', 'trialing', 'past_due']);

const day = (epochSeconds: number): string => new Date(epochSeconds * 1000).toISOString().slice(0, 10);
const iso = (epochSeconds: number | null): string | null => (epochSeconds === null ? null : new Date(epochSeconds * 1000).toISOString());

/** The client secret that confirms an invoice's payment: `confirmation_secret` since API 2025-03-31. */
function clientSecretOf(invoice: Stripe.Invoice | string | null): string | null {
  if (!invoice || typeof invoice === 'string') return null;
  return invoice.confirmation_secret?.client_secret ?? null;
}

function toPaymentMethod(pm: Stripe.PaymentMethod | null): PaymentMethod | null {
  if (!pm?.card) return null;
  return { brand: pm.card.brand, last4: pm.card.last4, expMonth: pm.card.exp_month, expYear: pm.card.exp_year };
}

/** Every billing call of a signed-in user (part 2 §2.10–2.13, part 1 settings), with the plan rules enforced here. */
export class SubscriptionService {
  constructor(
    private readonly db: Database,
    private readonly stripe: Stripe,
    private readonly prices: PriceBook,
    private readonly entitlements: EntitlementService,
    private readonly logger: Logger,
  ) {}

  private async user(userId: number): Promise<BillingUser> {
    const user = await new BillingUserRepository(this.db).findById(userId);
    if (!user) throw notFound('User not found');
    return user;
  }

  /** A live subscription (paid, on trial or retrying), or null. */
  private async liveSubscription(user: BillingUser): Promise<Stripe.Subscription | null> {
    const sub = await withStripe(() => this.entitlements.subscriptionOf(user));
    return sub && LIVE.has(sub.status) ? sub : null;
  }

  /**
   * POST /api/subscription. Without a live subscription: a new one in the user's currency, waiting for
   * its first payment, whose client secret the payment dialog confirms; the plan follows when Stripe
   * says it is paid. With one: the plan change of `update`.
   */
  async subscribe(userId: number, plan: PaidPlan): Promise<CreateSubscriptionAnswer> {
    const user = await this.user(userId);
    const existing = await withStripe(() => this.entitlements.subscriptionOf(user));
    if (existing && LIVE.has(existing.status)) {
      const { message } = await this.changePlan(user, existing, plan, { samePlanIsError: true });
      return { type: 'subscription', subscriptionId: existing.id, message };
    }
    const currency = currencySchema.catch(defaultCurrency).parse(user.currency);
    const price = await withStripe(() => this.prices.priceId(plan, currency));

    // A payment started and left (the dialog closed): the same plan reuses it, another replaces it.
    if (existing?.status === 'incomplete') {
      if (currentItem(existing)?.price.id === price) {
        const invoice = await withStripe(() =>
          this.stripe.invoices.retrieve(String(existing.latest_invoice), { expand: ['confirmation_secret'] }),
        );
        const clientSecret = clientSecretOf(invoice);
        if (clientSecret) return { clientSecret, subscriptionId: existing.id };
      }
      await withStripe(() => this.stripe.subscriptions.cancel(existing.id));
    }

    const customer = await this.customerOf(user);
    const sub = await withStripe(() =>
      this.stripe.subscriptions.create(
        {
          customer,
          items: [{ price }],
          payment_behavior: 'default_incomplete',
          payment_settings: { save_default_payment_method: 'on_subscription' },
          expand: ['latest_invoice.confirmation_secret'],
          metadata: { user_id: String(user.id) },
        },
        // Two tabs subscribing at once make one subscription. Keyed by the customer (unique in Stripe, unlike
        // a user id, which a reset database reuses) and by what it replaces, so a later attempt is a new one.
        { idempotencyKey: `subscribe-${customer}-${plan}-${currency}-${existing?.id ?? 'first'}` },
      ),
    );
    await new BillingUserRepository(this.db).setSubscription(user.id, sub.id);
    const clientSecret = clientSecretOf(sub.latest_invoice);
    if (!clientSecret) throw new Error(`subscription ${sub.id} came without a client secret`);
    this.logger.info({ userId: user.id, plan, currency, subscription: sub.id }, 'subscription created, awaiting payment');
    return { clientSecret, subscriptionId: sub.id };
  }

  /** The user's Stripe customer, created once: the user's row is locked meanwhile, so two tabs make one. */
  private async customerOf(user: BillingUser): Promise<string> {
    if (user.stripeCustomerId) return user.stripeCustomerId;
    return this.db.transaction().execute(async (trx) => {
      const users = new BillingUserRepository(trx);
      const locked = await users.lockById(user.id);
      if (locked?.stripeCustomerId) return locked.stripeCustomerId;
      // The row lock makes one customer per user; stripe-node's own idempotency keys cover its retries.
      const customer = await withStripe(() =>
        this.stripe.customers.create({ email: user.email, name: user.firstName ?? undefined, metadata: { user_id: String(user.id) } }),
      );
      await users.setCustomer(user.id, customer.id);
      return customer.id;
    });
  }

  /**
   * POST /api/subscription/update. The same plan as the subscription's re-reads it from Stripe (the
   * payment dialog calls this once the card is confirmed); another plan is changed by the rules.
   */
  async update(userId: number, plan: PaidPlan): Promise<UpdateSubscriptionAnswer> {
    const user = await this.user(userId);
    const sub = await this.liveSubscription(user);
    if (!sub) {
      // A payment just confirmed may not have reached us by webhook yet: read it now.
      const synced = await withStripe(() => this.entitlements.sync(user.id));
      if (synced?.entitlement.planType === plan) return { message: PLAN_UPDATED_MESSAGE, planType: plan };
      throw badRequest(NO_SUBSCRIPTION_MESSAGE);
    }
    return this.changePlan(user, sub, plan, { samePlanIsError: false });
  }

  private async changePlan(
    user: BillingUser,
    sub: Stripe.Subscription,
    plan: PaidPlan,
    { samePlanIsError }: { samePlanIsError: boolean },
  ): Promise<UpdateSubscriptionAnswer> {
    const now = entitlementOf(sub);
    const item = currentItem(sub);
    if (!item || !isPaidPlan(now.planType)) throw badRequest(NO_SUBSCRIPTION_MESSAGE);
    const currency = now.currency ?? currencySchema.catch(defaultCurrency).parse(user.currency);
    const price = await withStripe(() => this.prices.priceId(plan, currency));

    if (plan === now.planType) {
      if (now.pendingPlan) {
        // Choosing the current plan again calls off the change waiting for the renewal.
        await withStripe(() =>
          this.stripe.subscriptions.update(sub.id, {
            items: [{ id: item.id, price }],
            proration_behavior: 'none',
            cancel_at_period_end: false,
            metadata: { [PAID_PLAN_KEY]: '', [PAID_UNTIL_KEY]: '' },
          }),
        );
        return this.applied(user.id, `Your plan stays ${planLabel(plan)}.`);
      }
      if (samePlanIsError) throw badRequest(SAME_PLAN_MESSAGE);
      return this.applied(user.id, PLAN_UPDATED_MESSAGE);
    }

    if (rank[plan] > rank[now.planType]) {
      // An upgrade is charged now, pro rata, to the card on file; a decline leaves the plan as it was.
      await withStripe(() =>
        this.stripe.subscriptions.update(sub.id, {
          items: [{ id: item.id, price }],
          proration_behavior: 'always_invoice',
          payment_behavior: 'error_if_incomplete',
          cancel_at_period_end: false,
          metadata: { [PAID_PLAN_KEY]: '', [PAID_UNTIL_KEY]: '' },
        }),
      );
      return this.applied(user.id, PLAN_UPDATED_MESSAGE);
    }

    // A lower plan starts with the next billing cycle: the renewal charges it, the current one is kept till then.
    await withStripe(() =>
      this.stripe.subscriptions.update(sub.id, {
        items: [{ id: item.id, price }],
        proration_behavior: 'none',
        cancel_at_period_end: false,
        metadata: { [PAID_PLAN_KEY]: now.planType, [PAID_UNTIL_KEY]: String(item.current_period_end) },
      }),
    );
    return this.applied(user.id, `Your plan changes to ${planLabel(plan)} on ${day(item.current_period_end)}. Until then you keep ${planLabel(now.planType)}.`);
  }

  private async applied(userId: number, message: string): Promise<UpdateSubscriptionAnswer> {
    const synced = await withStripe(() => this.entitlements.sync(userId));
    return { message, planType: synced?.entitlement.planType ?? 'free' };
  }

  /** POST /api/subscription/cancel: the plan is kept to the end of the paid period, then Free. */
  async cancel(userId: number): Promise<CancelSubscriptionAnswer> {
    const user = await this.user(userId);
    const sub = await this.liveSubscription(user);
    const item = sub && currentItem(sub);
    if (!sub || !item) throw badRequest(NO_SUBSCRIPTION_MESSAGE);
    if (!sub.cancel_at_period_end) {
      await withStripe(() => this.stripe.subscriptions.update(sub.id, { cancel_at_period_end: true }));
    }
    const label = planLabel(entitlementOf(sub).planType);
    return {
      message: `Your subscription has been cancelled. You keep ${label} until ${day(item.current_period_end)}.`,
      cancelationDate: new Date(item.current_period_end * 1000).toISOString(),
    };
  }

  /** GET /api/subscription/status */
  async status(userId: number): Promise<SubscriptionStatusAnswer> {
    const user = await this.user(userId);
    const sub = await withStripe(() => this.entitlements.subscriptionOf(user));
    const e: Entitlement = entitlementOf(sub);
    return { status: sub?.status ?? null, cancelAtPeriodEnd: e.cancelAtPeriodEnd, currentPeriodEnd: iso(e.periodEnd) };
  }

  /** POST /api/sync-subscription: for a plan that missed a webhook. */
  async sync(userId: number): Promise<SyncSubscriptionAnswer> {
    const synced = await withStripe(() => this.entitlements.sync(userId));
    if (!synced) throw notFound('User not found');
    return { planType: synced.entitlement.planType, message: SUBSCRIPTION_SYNCED_MESSAGE, subscriptionStatus: synced.subscription?.status ?? null };
  }

  private async paidCustomer(userId: number): Promise<{ user: BillingUser; customer: string }> {
    const user = await this.user(userId);
    if (!features.paymentMethodUpdate(user.planType) || !user.stripeCustomerId) throw forbidden(PAID_PLAN_REQUIRED_MESSAGE);
    return { user, customer: user.stripeCustomerId };
  }

  /** The card renewals are charged to: the customer's default, else the subscription's. */
  private async defaultCardId(user: BillingUser, customer: string): Promise<string | null> {
    const c = await this.stripe.customers.retrieve(customer);
    const fromCustomer = 'deleted' in c && c.deleted ? null : c.invoice_settings.default_payment_method;
    if (fromCustomer) return typeof fromCustomer === 'string' ? fromCustomer : fromCustomer.id;
    const sub = await this.entitlements.subscriptionOf(user);
    const fromSub = sub?.default_payment_method ?? null;
    return typeof fromSub === 'string' ? fromSub : (fromSub?.id ?? null);
  }

  /** GET /api/payment-method */
  async paymentMethod(userId: number): Promise<PaymentMethod | null> {
    const { user, customer } = await this.paidCustomer(userId);
    return withStripe(async () => {
      const id = await this.defaultCardId(user, customer);
      return id ? toPaymentMethod(await this.stripe.paymentMethods.retrieve(id)) : null;
    });
  }

  /** POST /api/setup-intent: the card form confirms it, then the card is saved with `updatePaymentMethod`. */
  async setupIntent(userId: number): Promise<SetupIntentAnswer> {
    const { customer } = await this.paidCustomer(userId);
    const intent = await withStripe(() => this.stripe.setupIntents.create({ customer, usage: 'off_session' }));
    if (!intent.client_secret) throw new Error(`setup intent ${intent.id} came without a client secret`);
    return { clientSecret: intent.client_secret };
  }

  /** POST /api/update-payment-method: a card of this customer's (never another's) becomes the one renewals use. */
  async updatePaymentMethod(userId: number, paymentMethodId: string): Promise<UpdatePaymentMethodAnswer> {
    const { user, customer } = await this.paidCustomer(userId);
    let pm = await retrieveOr404(() => this.stripe.paymentMethods.retrieve(paymentMethodId), PAYMENT_METHOD_NOT_FOUND_MESSAGE);
    const owner = typeof pm.customer === 'string' ? pm.customer : (pm.customer?.id ?? null);
    if (owner !== null && owner !== customer) throw notFound(PAYMENT_METHOD_NOT_FOUND_MESSAGE);
    await withStripe(async () => {
      if (owner === null) pm = await this.stripe.paymentMethods.attach(pm.id, { customer });
      await this.stripe.customers.update(customer, { invoice_settings: { default_payment_method: pm.id } });
      const sub = await this.liveSubscription(user);
      if (sub) await this.stripe.subscriptions.update(sub.id, { default_payment_method: pm.id });
    });
    return { message: 'Your payment method has been updated.', paymentMethod: toPaymentMethod(pm) };
  }
}
