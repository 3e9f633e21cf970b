import type { Engine, Route } from '../engine.js';
import { str } from '../form.js';
import { newId, now } from '../store.js';

/** Customers. */
export function customersRoutes(engine: Engine): Route[] {
  const { store, listOf, customerRoute } = engine;
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
