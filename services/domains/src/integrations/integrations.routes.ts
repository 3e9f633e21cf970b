import { apiRouteOptions } from '@sendwell/contracts';
import { requireAuth } from '@sendwell/server-kit';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { IntegrationService } from './integration.service.js';
import type { WebhookService } from './webhook.service.js';

export interface IntegrationRoutesOptions {
  deps: { services: { integrations: IntegrationService; webhooks: WebhookService } };
}

/** The integrations page's calls (part 2 §2.16, §7). Paths are absolute: register without a prefix. */
export const integrationRoutes: FastifyPluginAsyncZod<IntegrationRoutesOptions> = async (app, { deps }) => {
  const { integrations, webhooks } = deps.services;
  app.addHook('onRequest', app.authenticate);
  const user = (request: Parameters<typeof requireAuth>[0]) => requireAuth(request).user;

  app.route({
    ...apiRouteOptions(app.prefix, 'GET /api/integrations'),
    handler: async (request) => integrations.list(user(request).id),
  });
  app.route({
    ...apiRouteOptions(app.prefix, 'POST /api/integrations'),
    handler: async (request) => integrations.save(user(request), request.body),
  });
  app.route({
    ...apiRouteOptions(app.prefix, 'POST /api/integrations/:service/test'),
    handler: async (request) => integrations.test(user(request), request.params.service),
  });
  app.route({
    ...apiRouteOptions(app.prefix, 'DELETE /api/integrations/:service'),
    handler: async (request) => integrations.remove(user(request), request.params.service),
  });

  app.route({
    ...apiRouteOptions(app.prefix, 'GET /api/integrations/webhooks'),
    handler: async (request) => webhooks.list(user(request)),
  });
  app.route({
    ...apiRouteOptions(app.prefix, 'POST /api/integrations/webhooks'),
    handler: async (request, reply) => reply.code(201).send(await webhooks.create(user(request), request.body)),
  });
  app.route({
    ...apiRouteOptions(app.prefix, 'DELETE /api/integrations/webhooks/:id'),
    handler: async (request) => {
      await webhooks.remove(user(request), request.params.id);
      return { success: true as const };
    },
  });
  app.route({
    ...apiRouteOptions(app.prefix, 'POST /api/integrations/webhooks/:id/test'),
    handler: async (request) => webhooks.test(user(request), request.params.id),
  });
};
