import type { Engine, Route } from '../engine.js';
import { str } from '../form.js';

/** Payment methods. */
export function paymentMethodsRoutes(engine: Engine): Route[] {
  const { store, listOf, paymentMethod, attach } = engine;
  return [
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
  ];
}
