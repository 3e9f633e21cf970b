import type { Engine, Route } from '../engine.js';

/** Payment intents. */
export function paymentIntentsRoutes(engine: Engine): Route[] {
  const { store, charge, confirmingCard } = engine;
  return [
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
  ];
}
