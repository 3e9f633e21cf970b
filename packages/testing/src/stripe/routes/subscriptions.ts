import { invalid, StripeApiError } from '../errors.js';
import { type Engine, metadata, type Route } from '../engine.js';
import { list, obj, str } from '../form.js';
import { newId, now, type StripeObject } from '../store.js';

/** Subscriptions. */
export function subscriptionsRoutes(engine: Engine): Route[] {
  const { store, emit, listOf, paymentMethod, subscriptionItem, openInvoice, charge, clockTime, updateSubscription } = engine;
  return [
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
  ];
}
