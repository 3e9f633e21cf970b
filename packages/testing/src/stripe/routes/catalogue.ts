import { invalid } from '../errors.js';
import { type Engine, metadata, type Route } from '../engine.js';
import { list, obj, str } from '../form.js';
import { newId, now } from '../store.js';

/** Products and prices. */
export function catalogueRoutes(engine: Engine): Route[] {
  const { store, listOf } = engine;
  return [
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
  ];
}
