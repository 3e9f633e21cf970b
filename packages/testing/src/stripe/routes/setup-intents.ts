import { StripeApiError } from '../errors.js';
import { type Engine, metadata, type Route } from '../engine.js';
import { str } from '../form.js';
import { newId, now } from '../store.js';

/** Setup intents. */
export function setupIntentsRoutes(engine: Engine): Route[] {
  const { store, emit, declining, attach, confirmingCard } = engine;
  return [
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
  ];
}
