import { StripeApiError, invalid } from './errors.js';
import { list, obj, str, type Form } from './form.js';
import { newId, now, type Store, type StripeObject } from './store.js';

/** Test-mode card tokens (Stripe's `pm_card_*`): each use makes a new card payment method. */
const TEST_CARDS: Record<string, { brand: string; last4: string; declines: boolean }> = {
  pm_card_visa: { brand: 'visa', last4: '4242', declines: false },
  pm_card_mastercard: { brand: 'mastercard', last4: '4444', declines: false },
  pm_card_chargeDeclined: { brand: 'visa', last4: '0002', declines: true },
};

const DAY = 86_400;

export type Emit = (type: string, object: StripeObject) => void;
export type Route = { method: string; pattern: RegExp; handle: (params: string[], form: Form) => unknown };

export const metadata = (form: Form): Record<string, unknown> => ({ ...obj(form.metadata) });

/** Metadata merged as Stripe merges it: a key set to the empty string is removed. */
export const mergeMetadata = (current: unknown, form: Form): Record<string, unknown> =>
  Object.fromEntries(Object.entries({ ...(current as object), ...metadata(form) }).filter(([, v]) => v !== ''));

/**
 * The stand-in's shared machinery, over one store: test cards, lists, invoices and the payment intents
 * that collect them, charging, renewals on test clocks and subscription updates. The routes of each
 * resource (routes/*.ts) call into it.
 */
export function createEngine(store: Store, emit: Emit, baseUrl: () => string) {
  const declining = new Set<string>();
  let invoiceNumber = 0;

  /** A page of a list, after `starting_after` (auto-pagination) and within `created[gte|lte]`. */
  const listOf = (url: string, all: StripeObject[], form: Form): Record<string, unknown> => {
    const limit = Number(str(form, 'limit') ?? 10);
    const created = obj(form.created);
    const gte = Number(str(created, 'gte') ?? -Infinity);
    const lte = Number(str(created, 'lte') ?? Infinity);
    let data = all.filter((o) => typeof o.created !== 'number' || (o.created >= gte && o.created <= lte));
    const after = str(form, 'starting_after');
    if (after) data = data.slice(data.findIndex((o) => o.id === after) + 1);
    return { object: 'list', data: data.slice(0, limit), has_more: data.length > limit, url };
  };

  const paymentMethod = (id: string, param = 'payment_method'): StripeObject => {
    const card = TEST_CARDS[id];
    if (!card) return store.get(id, 'payment_method', param);
    const pm = store.put({
      id: newId('pm'),
      object: 'payment_method',
      type: 'card',
      created: now(),
      livemode: false,
      customer: null,
      billing_details: { address: null, email: null, name: null, phone: null },
      card: { brand: card.brand, last4: card.last4, exp_month: 12, exp_year: new Date().getFullYear() + 3, country: 'US', funding: 'credit' },
      metadata: {},
    });
    if (card.declines) declining.add(pm.id);
    return pm;
  };

  const attach = (pm: StripeObject, customer: string): void => {
    store.get(customer, 'customer', 'customer');
    pm.customer = customer;
  };

  const periodLength = (price: StripeObject): number => {
    const recurring = price.recurring as { interval: string; interval_count: number } | null;
    const days = { day: 1, week: 7, month: 30, year: 365 }[recurring?.interval ?? 'month'] ?? 30;
    return days * (recurring?.interval_count ?? 1) * DAY;
  };

  const subscriptionItem = (subscription: string, price: StripeObject, quantity: number, start: number) => ({
    id: newId('si'),
    object: 'subscription_item',
    created: start,
    price: structuredClone(price),
    quantity,
    subscription,
    current_period_start: start,
    current_period_end: start + periodLength(price),
    metadata: {},
  });

  const items = (sub: StripeObject): Record<string, unknown>[] =>
    (sub.items as { data: Record<string, unknown>[] }).data;

  /** An open invoice for the subscription's current period and the payment intent that collects it. */
  const openInvoice = (sub: StripeObject, reason: string, prorated?: number): StripeObject => {
    const lines = items(sub);
    const amount =
      prorated ??
      lines.reduce((sum, item) => sum + ((item.price as { unit_amount: number }).unit_amount ?? 0) * (item.quantity as number), 0);
    const currency = (lines[0]?.price as { currency: string }).currency;
    const invoiceId = newId('in');
    const pi = store.put({
      id: newId('pi'),
      object: 'payment_intent',
      amount,
      currency,
      customer: sub.customer,
      invoice: invoiceId,
      status: 'requires_payment_method',
      client_secret: '',
      payment_method: null,
      last_payment_error: null,
      created: now(),
      livemode: false,
      metadata: {},
    });
    pi.client_secret = `${pi.id}_secret_${newId('s').slice(2)}`;
    invoiceNumber += 1;
    return store.put({
      id: invoiceId,
      object: 'invoice',
      customer: sub.customer,
      subscription: sub.id,
      parent: { type: 'subscription_details', subscription_details: { subscription: sub.id } },
      billing_reason: reason,
      number: `SW-${String(invoiceNumber).padStart(4, '0')}`,
      status: 'open',
      currency,
      amount_due: amount,
      amount_paid: 0,
      amount_remaining: amount,
      total: amount,
      attempt_count: 0,
      payment_intent: pi.id,
      confirmation_secret: { type: 'payment_intent', client_secret: pi.client_secret },
      hosted_invoice_url: `${baseUrl()}/invoices/${invoiceId}`,
      invoice_pdf: `${baseUrl()}/invoices/${invoiceId}/pdf`,
      period_start: lines[0]?.current_period_start,
      period_end: lines[0]?.current_period_end,
      lines: {
        object: 'list',
        has_more: false,
        url: `/v1/invoices/${invoiceId}/lines`,
        data: lines.map((item) => ({
          id: newId('il'),
          object: 'line_item',
          amount: prorated ?? (item.price as { unit_amount: number }).unit_amount * (item.quantity as number),
          currency,
          quantity: item.quantity,
          period: { start: item.current_period_start, end: item.current_period_end },
          pricing: { type: 'price_details', price_details: { price: (item.price as StripeObject).id } },
        })),
      },
      created: now(),
      livemode: false,
      metadata: {},
    });
  };

  /** Charges a payment intent's card; on success its invoice is paid and its subscription active. */
  const charge = (pi: StripeObject, pm: StripeObject): void => {
    pi.payment_method = pm.id;
    const invoice = typeof pi.invoice === 'string' ? store.find(pi.invoice) : undefined;
    const sub = typeof invoice?.subscription === 'string' ? store.find(invoice.subscription) : undefined;
    if (declining.has(pm.id)) {
      const error = {
        type: 'card_error',
        code: 'card_declined',
        decline_code: 'generic_decline',
        message: 'Your card was declined.',
        payment_method: structuredClone(pm),
      };
      Object.assign(pi, { status: 'requires_payment_method', last_payment_error: error });
      emit('payment_intent.payment_failed', pi);
      if (invoice) {
        invoice.attempt_count = (invoice.attempt_count as number) + 1;
        emit('invoice.payment_failed', invoice);
      }
      throw new StripeApiError(402, { ...error, payment_intent: structuredClone(pi) });
    }
    if (typeof pi.customer === 'string' && !pm.customer) attach(pm, pi.customer);
    Object.assign(pi, { status: 'succeeded', last_payment_error: null, amount_received: pi.amount });
    emit('payment_intent.succeeded', pi);
    if (!invoice) return;
    Object.assign(invoice, {
      status: 'paid',
      amount_paid: invoice.amount_due,
      amount_remaining: 0,
      attempt_count: (invoice.attempt_count as number) + 1,
      status_transitions: { paid_at: now() },
    });
    emit('invoice.paid', invoice);
    if (sub && sub.status !== 'active') {
      sub.status = 'active';
      sub.default_payment_method ??= pm.id;
      emit('customer.subscription.updated', sub);
    }
  };

  /** Now for a customer: its test clock's frozen time when it has one. */
  const clockTime = (customer: StripeObject): number =>
    typeof customer.test_clock === 'string' ? (store.get(customer.test_clock, 'test_helpers.test_clock').frozen_time as number) : now();

  /**
   * Moves a subscription on a test clock to `time`: each period end passed renews it with an invoice
   * charged to its default card; a decline makes it past_due, and the next period end passed unpaid
   * (or `cancel_at_period_end`) cancels it, as Stripe's retries would in the end.
   */
  const advanceSubscription = (sub: StripeObject, time: number): void => {
    for (let item = items(sub)[0]; item && (item.current_period_end as number) <= time; item = items(sub)[0]) {
      if (sub.status === 'past_due' || sub.cancel_at_period_end === true) {
        Object.assign(sub, { status: 'canceled', canceled_at: item.current_period_end, ended_at: item.current_period_end });
        emit('customer.subscription.deleted', sub);
        return;
      }
      for (const i of items(sub)) {
        const start = i.current_period_end as number;
        Object.assign(i, { current_period_start: start, current_period_end: start + periodLength(i.price as StripeObject) });
      }
      const invoice = openInvoice(sub, 'subscription_cycle');
      sub.latest_invoice = invoice.id;
      const customer = store.get(sub.customer as string, 'customer');
      const card =
        (sub.default_payment_method as string | null) ??
        (customer.invoice_settings as { default_payment_method: string | null }).default_payment_method;
      try {
        if (!card) throw invalid('No default payment method', 'default_payment_method');
        charge(store.get(invoice.payment_intent as string, 'payment_intent'), paymentMethod(card));
      } catch (error) {
        if (!(error instanceof StripeApiError)) throw error;
        sub.status = 'past_due';
        emit('customer.subscription.updated', sub);
      }
    }
  };

  const customerRoute = (form: Form, c: StripeObject): StripeObject => {
    for (const key of ['email', 'name', 'description'] as const) if (str(form, key) !== undefined) c[key] = str(form, key);
    if (form.metadata) c.metadata = mergeMetadata(c.metadata, form);
    const defaultPm = str(obj(form.invoice_settings), 'default_payment_method');
    if (defaultPm !== undefined) {
      const pm = paymentMethod(defaultPm, 'invoice_settings[default_payment_method]');
      if (pm.customer !== c.id) attach(pm, c.id);
      c.invoice_settings = { ...(c.invoice_settings as object), default_payment_method: pm.id };
    }
    return c;
  };

  /**
   * `proration_behavior=always_invoice`: an invoice for the rest of the period at the new price less
   * the old, charged at once to the subscription's card (Stripe's pro rata by seconds left).
   * With `payment_behavior=error_if_incomplete`, a decline throws and the caller keeps the old price.
   */
  const invoiceProration = (sub: StripeObject, item: Record<string, unknown>, from: StripeObject, to: StripeObject, form: Form): void => {
    const start = item.current_period_start as number;
    const end = item.current_period_end as number;
    const clock = clockTime(store.get(sub.customer as string, 'customer'));
    const left = Math.max(0, Math.min(1, (end - clock) / (end - start)));
    const amount = Math.round(((to.unit_amount as number) - (from.unit_amount as number)) * (item.quantity as number) * left);
    if (amount <= 0) return;
    const invoice = openInvoice(sub, 'subscription_update', amount);
    sub.latest_invoice = invoice.id;
    const customer = store.get(sub.customer as string, 'customer');
    const card =
      (sub.default_payment_method as string | null) ??
      (customer.invoice_settings as { default_payment_method: string | null }).default_payment_method;
    if (!card) throw invalid('This customer has no attached payment source or default payment method.', 'default_payment_method');
    try {
      charge(store.get(invoice.payment_intent as string, 'payment_intent'), paymentMethod(card));
    } catch (error) {
      if (str(form, 'payment_behavior') === 'error_if_incomplete') {
        Object.assign(invoice, { status: 'void' });
        throw error;
      }
    }
  };

  const updateSubscription = (sub: StripeObject, form: Form): StripeObject => {
    const before = structuredClone(sub);
    try {
      for (const entry of list(form, 'items')) {
        const change = obj(entry) ?? {};
        const price = store.get(str(change, 'price') ?? '', 'price', 'items[0][price]');
        const existing = items(sub).find((i) => i.id === str(change, 'id')) ?? items(sub)[0];
        if (!existing) throw invalid('No subscription item to update', 'items');
        const from = existing.price as StripeObject;
        existing.price = structuredClone(price);
        if (str(change, 'quantity')) existing.quantity = Number(str(change, 'quantity'));
        if (str(form, 'proration_behavior') === 'always_invoice' && from.id !== price.id) invoiceProration(sub, existing, from, price, form);
      }
    } catch (error) {
      // Stripe applies an update whole or not at all.
      store.put(Object.assign(sub, before));
      throw error;
    }
    const cancelAtEnd = str(form, 'cancel_at_period_end');
    if (cancelAtEnd !== undefined) sub.cancel_at_period_end = cancelAtEnd === 'true';
    if (form.metadata) sub.metadata = mergeMetadata(sub.metadata, form);
    if (str(form, 'default_payment_method')) sub.default_payment_method = paymentMethod(str(form, 'default_payment_method') ?? '').id;
    emit('customer.subscription.updated', sub);
    return sub;
  };

  /** The card an intent is confirmed with: the one given now, else the one set on the intent. */
  const confirmingCard = (intent: StripeObject, form: Form): StripeObject => {
    const pmId = str(form, 'payment_method') ?? (intent.payment_method as string | null);
    if (!pmId) throw invalid('You must provide a payment_method to confirm this intent.', 'payment_method');
    return paymentMethod(pmId);
  };

  return { store, emit, declining, listOf, paymentMethod, attach, subscriptionItem, items, openInvoice, charge, clockTime, advanceSubscription, customerRoute, updateSubscription, confirmingCard };
}

export type Engine = ReturnType<typeof createEngine>;
