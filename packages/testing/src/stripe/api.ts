import { createEngine, type Emit, type Route } from './engine.js';
import { customersRoutes } from './routes/customers.js';
import { catalogueRoutes } from './routes/catalogue.js';
import { subscriptionsRoutes } from './routes/subscriptions.js';
import { paymentIntentsRoutes } from './routes/payment-intents.js';
import { setupIntentsRoutes } from './routes/setup-intents.js';
import { paymentMethodsRoutes } from './routes/payment-methods.js';
import { invoicesRoutes } from './routes/invoices.js';
import { testClocksRoutes } from './routes/test-clocks.js';
import { eventsRoutes } from './routes/events.js';
import type { Store } from './store.js';

export type { Emit, Route } from './engine.js';

/** Stripe's endpoints that Sendwell uses, over one in-memory store, one file per resource. */
export function stripeRoutes(store: Store, emit: Emit, baseUrl: () => string): Route[] {
  const engine = createEngine(store, emit, baseUrl);
  return [
    ...customersRoutes(engine),
    ...catalogueRoutes(engine),
    ...subscriptionsRoutes(engine),
    ...paymentIntentsRoutes(engine),
    ...setupIntentsRoutes(engine),
    ...paymentMethodsRoutes(engine),
    ...invoicesRoutes(engine),
    ...testClocksRoutes(engine),
    ...eventsRoutes(engine),
  ];
}
