import type { Engine, Route } from '../engine.js';
import { missing } from '../errors.js';
import { str } from '../form.js';
import { newId, now, type StripeObject } from '../store.js';

/** Customers. */
export function customersRoutes(engine: Engine): Route[] {
  const { store, emit, listOf, customerRoute } = engine;
  return [
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
      // As Stripe: the customer's subscriptions end at once, and what remains is a stub that
      // retrieving still answers (`deleted: true`); deleting it again is a 404.
      method: 'DELETE',
      pattern: /^\/v1\/customers\/([^/]+)$/,
      handle: ([id]) => {
        const customer = store.get(id!, 'customer');
        if (customer.deleted) throw missing(id!, 'id');
        for (const sub of store.all('subscription')) {
          if (sub.customer !== id || sub.status === 'canceled') continue;
          Object.assign(sub, { status: 'canceled', canceled_at: now(), ended_at: now() });
          emit('customer.subscription.deleted', sub);
        }
        emit('customer.deleted', customer);
        return store.put<StripeObject>({ id: customer.id, object: 'customer', deleted: true });
      },
    },
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
  ];
}
