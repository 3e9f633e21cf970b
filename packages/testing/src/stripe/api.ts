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

const metadata = (form: Form): Record<string, unknown> => ({ ...obj(form.metadata) });

/** Metadata merged as Stripe merges it: a key set to the empty string is removed. */
const mergeMetadata = (current: unknown, form: Form): Record<string, unknown> =>
  Object.fromEntries(Object.entries({ ...(current as object), ...metadata(form) }).filter(([, v]) => v !== ''));

/** Stripe's endpoints that Sendwell uses, over one in-memory store. */
export function stripeRoutes(store: Store, emit: Emit, baseUrl: () => string): Route[] {
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

  return [
    // Customers
    {
      method: 'POST',
      pattern: /^\/v1\/customers$/,
      handle: (_, form) =>
        customerRoute(
          form,
          store.put({
            id: newId('cus'),
            object: 'customer',
            email: null,
            name: null,
            created: now(),
            livemode: false,
            test_clock: str(form, 'test_clock') ?? null,
            invoice_settings: { default_payment_method: null },
            metadata: {},
          }),
        ),
    },
    { method: 'GET', pattern: /^\/v1\/customers\/([^/]+)$/, handle: ([id]) => store.get(id!, 'customer') },
    {
      method: 'POST',
      pattern: /^\/v1\/customers\/([^/]+)$/,
      handle: ([id], form) => customerRoute(form, store.get(id!, 'customer')),
    },
    {
      method: 'GET',
      pattern: /^\/v1\/customers\/([^/]+)\/payment_methods$/,
      handle: ([id], form) => {
        store.get(id!, 'customer');
        const data = store.all('payment_method').filter((pm) => pm.customer === id);
        return listOf(`/v1/customers/${id}/payment_methods`, data, form);
      },
    },
    // Products and prices
    {
      method: 'POST',
      pattern: /^\/v1\/products$/,
      handle: (_, form) => {
        if (!str(form, 'name')) throw invalid('Missing required param: name.', 'name');
        return store.put({
          id: str(form, 'id') ?? newId('prod'),
          object: 'product',
          name: str(form, 'name'),
          active: str(form, 'active') !== 'false',
          created: now(),
          livemode: false,
          metadata: metadata(form),
        });
      },
    },
    { method: 'GET', pattern: /^\/v1\/products\/([^/]+)$/, handle: ([id]) => store.get(id!, 'product') },
    { method: 'GET', pattern: /^\/v1\/products$/, handle: (_, form) => listOf('/v1/products', store.all('product'), form) },
    {
      method: 'POST',
      pattern: /^\/v1\/prices$/,
      handle: (_, form) => {
        const product = store.get(str(form, 'product') ?? '', 'product', 'product');
        const currency = str(form, 'currency');
        if (!currency) throw invalid('Missing required param: currency.', 'currency');
        const recurring = obj(form.recurring);
        const lookupKey = str(form, 'lookup_key') ?? null;
        if (lookupKey && str(form, 'transfer_lookup_key') === 'true') {
          for (const p of store.all('price')) if (p.lookup_key === lookupKey) p.lookup_key = null;
        }
        return store.put({
          id: newId('price'),
          object: 'price',
          active: true,
          product: product.id,
          currency,
          unit_amount: Number(str(form, 'unit_amount') ?? 0),
          lookup_key: lookupKey,
          type: recurring ? 'recurring' : 'one_time',
          recurring: recurring
            ? { interval: str(recurring, 'interval'), interval_count: Number(str(recurring, 'interval_count') ?? 1), usage_type: 'licensed' }
            : null,
          created: now(),
          livemode: false,
          metadata: metadata(form),
        });
      },
    },
    { method: 'GET', pattern: /^\/v1\/prices\/([^/]+)$/, handle: ([id]) => store.get(id!, 'price') },
    {
      method: 'GET',
      pattern: /^\/v1\/prices$/,
      handle: (_, form) => {
        const keys = list(form, 'lookup_keys');
        const active = str(form, 'active');
        const data = store
          .all('price')
          .filter((p) => keys.length === 0 || keys.includes(p.lookup_key as string))
          .filter((p) => active === undefined || String(p.active) === active)
          .filter((p) => !str(form, 'product') || p.product === str(form, 'product'));
        return listOf('/v1/prices', data, form);
      },
    },
    // Subscriptions
    {
      method: 'POST',
      pattern: /^\/v1\/subscriptions$/,
      handle: (_, form) => {
        const customer = store.get(str(form, 'customer') ?? '', 'customer', 'customer');
        const entries = list(form, 'items').map((e) => obj(e) ?? {});
        if (entries.length === 0) throw invalid('Missing required param: items.', 'items');
        const start = clockTime(customer);
        const sub = store.put<StripeObject>({
          id: newId('sub'),
          object: 'subscription',
          customer: customer.id,
          status: 'incomplete',
          cancel_at_period_end: false,
          canceled_at: null,
          ended_at: null,
          default_payment_method: null,
          latest_invoice: null,
          billing_cycle_anchor: start,
          start_date: start,
          created: start,
          livemode: false,
          test_clock: customer.test_clock,
          metadata: metadata(form),
          items: { object: 'list', has_more: false, url: '', data: [] },
        });
        sub.items = {
          object: 'list',
          has_more: false,
          url: `/v1/subscription_items?subscription=${sub.id}`,
          data: entries.map((e, i) =>
            subscriptionItem(sub.id, store.get(str(e, 'price') ?? '', 'price', `items[${i}][price]`), Number(str(e, 'quantity') ?? 1), start),
          ),
        };
        const invoice = openInvoice(sub, 'subscription_create');
        sub.latest_invoice = invoice.id;
        emit('customer.subscription.created', sub);
        const defaultPm =
          str(form, 'default_payment_method') ??
          ((customer.invoice_settings as { default_payment_method: string | null }).default_payment_method ?? undefined);
        if (str(form, 'payment_behavior') !== 'default_incomplete' && defaultPm) {
          try {
            charge(store.get(invoice.payment_intent as string, 'payment_intent'), paymentMethod(defaultPm));
          } catch (error) {
            if (!(error instanceof StripeApiError) || str(form, 'payment_behavior') === 'error_if_incomplete') throw error;
          }
        }
        return sub;
      },
    },
    { method: 'GET', pattern: /^\/v1\/subscriptions\/([^/]+)$/, handle: ([id]) => store.get(id!, 'subscription') },
    {
      method: 'GET',
      pattern: /^\/v1\/subscriptions$/,
      handle: (_, form) => {
        const data = store.all('subscription').filter((s) => !str(form, 'customer') || s.customer === str(form, 'customer'));
        return listOf('/v1/subscriptions', data, form);
      },
    },
    {
      method: 'POST',
      pattern: /^\/v1\/subscriptions\/([^/]+)$/,
      handle: ([id], form) => updateSubscription(store.get(id!, 'subscription'), form),
    },
    {
      method: 'DELETE',
      pattern: /^\/v1\/subscriptions\/([^/]+)$/,
      handle: ([id]) => {
        const sub = store.get(id!, 'subscription');
        Object.assign(sub, { status: 'canceled', canceled_at: now(), ended_at: now() });
        emit('customer.subscription.deleted', sub);
        return sub;
      },
    },
    // Payment intents
    { method: 'GET', pattern: /^\/v1\/payment_intents\/([^/]+)$/, handle: ([id]) => store.get(id!, 'payment_intent') },
    {
      method: 'POST',
      pattern: /^\/v1\/payment_intents\/([^/]+)\/confirm$/,
      handle: ([id], form) => {
        const intent = store.get(id!, 'payment_intent');
        charge(intent, confirmingCard(intent, form));
        return intent;
      },
    },
    // Setup intents
    {
      method: 'POST',
      pattern: /^\/v1\/setup_intents$/,
      handle: (_, form) => {
        const customer = str(form, 'customer');
        if (customer) store.get(customer, 'customer', 'customer');
        const si = store.put({
          id: newId('seti'),
          object: 'setup_intent',
          customer: customer ?? null,
          status: 'requires_payment_method',
          usage: str(form, 'usage') ?? 'off_session',
          payment_method: null,
          last_setup_error: null,
          client_secret: '',
          created: now(),
          livemode: false,
          metadata: metadata(form),
        });
        si.client_secret = `${si.id}_secret_${newId('s').slice(2)}`;
        return si;
      },
    },
    { method: 'GET', pattern: /^\/v1\/setup_intents\/([^/]+)$/, handle: ([id]) => store.get(id!, 'setup_intent') },
    {
      method: 'POST',
      pattern: /^\/v1\/setup_intents\/([^/]+)\/confirm$/,
      handle: ([id], form) => {
        const intent = store.get(id!, 'setup_intent');
        const pm = confirmingCard(intent, form);
        intent.payment_method = pm.id;
        if (declining.has(pm.id)) {
          const error = { type: 'card_error', code: 'card_declined', decline_code: 'generic_decline', message: 'Your card was declined.' };
          Object.assign(intent, { status: 'requires_payment_method', last_setup_error: error });
          emit('setup_intent.setup_failed', intent);
          throw new StripeApiError(402, { ...error, setup_intent: structuredClone(intent) });
        }
        if (typeof intent.customer === 'string') attach(pm, intent.customer);
        Object.assign(intent, { status: 'succeeded', last_setup_error: null });
        emit('setup_intent.succeeded', intent);
        return intent;
      },
    },
    // Payment methods
    { method: 'GET', pattern: /^\/v1\/payment_methods\/([^/]+)$/, handle: ([id]) => paymentMethod(id!, 'id') },
    {
      method: 'POST',
      pattern: /^\/v1\/payment_methods\/([^/]+)\/attach$/,
      handle: ([id], form) => {
        const pm = paymentMethod(id!, 'id');
        attach(pm, str(form, 'customer') ?? '');
        return pm;
      },
    },
    {
      method: 'GET',
      pattern: /^\/v1\/payment_methods$/,
      handle: (_, form) => {
        const customer = str(form, 'customer');
        if (customer) store.get(customer, 'customer', 'customer');
        const data = store.all('payment_method').filter((pm) => pm.customer === customer);
        return listOf('/v1/payment_methods', data, form);
      },
    },
    // Invoices
    { method: 'GET', pattern: /^\/v1\/invoices\/([^/]+)$/, handle: ([id]) => store.get(id!, 'invoice') },
    {
      method: 'GET',
      pattern: /^\/v1\/invoices$/,
      handle: (_, form) => {
        const data = store
          .all('invoice')
          .filter((i) => !str(form, 'customer') || i.customer === str(form, 'customer'))
          .filter((i) => !str(form, 'subscription') || i.subscription === str(form, 'subscription'))
          .reverse();
        return listOf('/v1/invoices', data, form);
      },
    },
    // Test clocks
    {
      method: 'POST',
      pattern: /^\/v1\/test_helpers\/test_clocks$/,
      handle: (_, form) =>
        store.put({
          id: newId('clock'),
          object: 'test_helpers.test_clock',
          frozen_time: Number(str(form, 'frozen_time') ?? now()),
          name: str(form, 'name') ?? null,
          status: 'ready',
          created: now(),
          livemode: false,
        }),
    },
    {
      method: 'GET',
      pattern: /^\/v1\/test_helpers\/test_clocks\/([^/]+)$/,
      handle: ([id]) => store.get(id!, 'test_helpers.test_clock'),
    },
    {
      method: 'POST',
      pattern: /^\/v1\/test_helpers\/test_clocks\/([^/]+)\/advance$/,
      handle: ([id], form) => {
        const clock = store.get(id!, 'test_helpers.test_clock');
        const time = Number(str(form, 'frozen_time'));
        if (!(time > (clock.frozen_time as number))) throw invalid('frozen_time must be after the current time.', 'frozen_time');
        clock.frozen_time = time;
        for (const sub of store.all('subscription')) {
          if (sub.test_clock === clock.id && sub.status !== 'canceled' && sub.status !== 'incomplete') advanceSubscription(sub, time);
        }
        emit('test_helpers.test_clock.ready', clock);
        return clock;
      },
    },
    // Events
    { method: 'GET', pattern: /^\/v1\/events\/([^/]+)$/, handle: ([id]) => store.get(id!, 'event') },
    {
      method: 'GET',
      pattern: /^\/v1\/events$/,
      handle: (_, form) => {
        const data = store.all('event').filter((e) => !str(form, 'type') || e.type === str(form, 'type')).reverse();
        return listOf('/v1/events', data, form);
      },
    },
  ];
}
