import {
  apiRouteOptions,
  createWebhookAnswer,
  deleteIntegrationAnswer,
  deleteWebhookAnswer,
  errorResponses,
  listIntegrationsAnswer,
  listWebhooksAnswer,
  saveIntegrationAnswer,
  testIntegrationAnswer,
} from '@sendwell/contracts';
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
    ...apiRouteOptions(app.prefix, 'GET /api/integrations', { response: { 200: listIntegrationsAnswer, ...errorResponses(401) } }),
    handler: async (request) => integrations.list(user(request).id),
  });
  app.route({
    ...apiRouteOptions(app.prefix, 'POST /api/integrations', { response: { 200: saveIntegrationAnswer, ...errorResponses(400, 401, 403, 503) } }),
    handler: async (request) => integrations.save(user(request), request.body),
  });
  app.route({
    ...apiRouteOptions(app.prefix, 'POST /api/integrations/:service/test', { response: { 200: testIntegrationAnswer, ...errorResponses(400, 401, 403, 404) } }),
    handler: async (request) => integrations.test(user(request), request.params.service),
  });
  app.route({
    ...apiRouteOptions(app.prefix, 'DELETE /api/integrations/:service', { response: { 200: deleteIntegrationAnswer, ...errorResponses(400, 401, 404) } }),
    handler: async (request) => integrations.remove(user(request), request.params.service),
  });

  app.route({
    ...apiRouteOptions(app.prefix, 'GET /api/integrations/webhooks', { response: { 200: listWebhooksAnswer, ...errorResponses(401, 403) } }),
    handler: async (request) => webhooks.list(user(request)),
  });
  app.route({
    ...apiRouteOptions(app.prefix, 'POST /api/integrations/webhooks', { response: { 201: createWebhookAnswer, ...errorResponses(400, 401, 403) } }),
    handler: async (request, reply) => reply.code(201).send(await webhooks.create(user(request), request.body)),
  });
  app.route({
    ...apiRouteOptions(app.prefix, 'DELETE /api/integrations/webhooks/:id', { response: { 200: deleteWebhookAnswer, ...errorResponses(400, 401, 404) } }),
    handler: async (request) => {
      await webhooks.remove(user(request), request.params.id);
      return { success: true as const };
    },
  });
  app.route({
    ...apiRouteOptions(app.prefix, 'POST /api/integrations/webhooks/:id/test', { response: { 200: testIntegrationAnswer, ...errorResponses(400, 401, 403, 404) } }),
    handler: async (request) => webhooks.test(user(request), request.params.id),
  });
};
