import {
  createWebhookAnswer,
  createWebhookBody,
  deleteIntegrationAnswer,
  deleteWebhookAnswer,
  errorResponses,
  integrationServiceParams,
  listIntegrationsAnswer,
  listWebhooksAnswer,
  saveIntegrationAnswer,
  saveIntegrationBody,
  testIntegrationAnswer,
  webhookIdParams,
} from '@sendwell/contracts';
import { requireAuth } from '@sendwell/server-kit';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { IntegrationService } from '../services/integration.service.js';
import type { WebhookService } from '../services/webhook.service.js';

export interface IntegrationRoutesOptions {
  deps: { services: { integrations: IntegrationService; webhooks: WebhookService } };
}

/** The integrations page's calls (part 2 §2.16, §7). Paths are absolute: register without a prefix. */
export const integrationRoutes: FastifyPluginAsyncZod<IntegrationRoutesOptions> = async (app, { deps }) => {
  const { integrations, webhooks } = deps.services;
  app.addHook('onRequest', app.authenticate);
  const user = (request: Parameters<typeof requireAuth>[0]) => requireAuth(request).user;

  app.get('/api/integrations', { schema: { response: { 200: listIntegrationsAnswer, ...errorResponses(401) } } }, async (request) =>
    integrations.list(user(request).id),
  );
  app.post(
    '/api/integrations',
    { schema: { body: saveIntegrationBody, response: { 200: saveIntegrationAnswer, ...errorResponses(400, 401, 403, 503) } } },
    async (request) => integrations.save(user(request), request.body),
  );
  app.post(
    '/api/integrations/:service/test',
    { schema: { params: integrationServiceParams, response: { 200: testIntegrationAnswer, ...errorResponses(400, 401, 403, 404) } } },
    async (request) => integrations.test(user(request), request.params.service),
  );
  app.delete(
    '/api/integrations/:service',
    { schema: { params: integrationServiceParams, response: { 200: deleteIntegrationAnswer, ...errorResponses(400, 401, 404) } } },
    async (request) => integrations.remove(user(request), request.params.service),
  );

  app.get('/api/integrations/webhooks', { schema: { response: { 200: listWebhooksAnswer, ...errorResponses(401, 403) } } }, async (request) =>
    webhooks.list(user(request)),
  );
  app.post(
    '/api/integrations/webhooks',
    { schema: { body: createWebhookBody, response: { 201: createWebhookAnswer, ...errorResponses(400, 401, 403) } } },
    async (request, reply) => reply.code(201).send(await webhooks.create(user(request), request.body)),
  );
  app.delete(
    '/api/integrations/webhooks/:id',
    { schema: { params: webhookIdParams, response: { 200: deleteWebhookAnswer, ...errorResponses(400, 401, 404) } } },
    async (request) => {
      await webhooks.remove(user(request), request.params.id);
      return { success: true as const };
    },
  );
  app.post(
    '/api/integrations/webhooks/:id/test',
    { schema: { params: webhookIdParams, response: { 200: testIntegrationAnswer, ...errorResponses(400, 401, 403, 404) } } },
    async (request) => webhooks.test(user(request), request.params.id),
  );
};
