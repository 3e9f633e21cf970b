import type { Engine, Route } from '../engine.js';
import { str } from '../form.js';

/** Invoices. */
export function invoicesRoutes(engine: Engine): Route[] {
  const { store, listOf } = engine;
  return [
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
  ];
}
