import { apiRouteOptions } from '@sendwell/contracts';
import { requireAuth } from '@sendwell/server-kit';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { InvoiceService } from '../services/invoice.service.js';
import type { SubscriptionService } from '../services/subscription.service.js';

export interface BillingRoutesOptions {
  deps: { env: { STRIPE_PUBLISHABLE_KEY: string }; services: { subscriptions: SubscriptionService; invoices: InvoiceService } };
}

/** The signed-in user's billing calls (part 2 §7, part 1 settings). Paths are absolute: register without a prefix. */
export const billingRoutes: FastifyPluginAsyncZod<BillingRoutesOptions> = async (app, { deps }) => {
  const { subscriptions, invoices } = deps.services;
  app.addHook('onRequest', app.authenticate);
  const userId = (request: Parameters<typeof requireAuth>[0]) => requireAuth(request).user.id;

  app.route({
    ...apiRouteOptions(app.prefix, 'POST /api/subscription'),
    handler: async (request) => subscriptions.subscribe(userId(request), request.body.plan),
  });
  app.route({
    ...apiRouteOptions(app.prefix, 'POST /api/subscription/update'),
    handler: async (request) => subscriptions.update(userId(request), request.body.plan),
  });
  app.route({
    ...apiRouteOptions(app.prefix, 'POST /api/subscription/cancel'),
    handler: async (request) => subscriptions.cancel(userId(request)),
  });
  app.route({
    ...apiRouteOptions(app.prefix, 'GET /api/subscription/status'),
    handler: async (request) => subscriptions.status(userId(request)),
  });
  app.route({
    ...apiRouteOptions(app.prefix, 'POST /api/sync-subscription'),
    handler: async (request) => subscriptions.sync(userId(request)),
  });
  app.route({
    ...apiRouteOptions(app.prefix, 'GET /api/payment-method'),
    handler: async (request) => subscriptions.paymentMethod(userId(request)),
  });
  app.route({
    ...apiRouteOptions(app.prefix, 'POST /api/setup-intent'),
    handler: async (request) => subscriptions.setupIntent(userId(request)),
  });
  app.route({
    ...apiRouteOptions(app.prefix, 'POST /api/update-payment-method'),
    handler: async (request) => subscriptions.updatePaymentMethod(userId(request), request.body.paymentMethodId),
  });
  app.route({
    ...apiRouteOptions(app.prefix, 'GET /api/billing/config'),
    handler: async () => ({
      publishableKey: deps.env.STRIPE_PUBLISHABLE_KEY,
    }),
  });
  app.route({
    ...apiRouteOptions(app.prefix, 'GET /api/billing/history'),
    handler: async (request) => invoices.history(userId(request)),
  });
  app.route({
    ...apiRouteOptions(app.prefix, 'GET /api/billing/invoices/:id/pdf'),
    handler: async (request, reply) => {
      const { fileName, pdf } = await invoices.pdf(userId(request), request.params.id);
      // A Buffer goes out as it is, past the JSON schemas (which type `send` by the error answers only).
      return reply.header('content-type', 'application/pdf').header('content-disposition', `attachment; filename="${fileName}"`).send(pdf as never);
    },
  });
};
