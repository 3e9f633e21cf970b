import { apiRouteOptions, blacklistCheckAnswer, scanDomainAnswer, scanStatusAnswer, errorResponses } from '@sendwell/contracts';
import { requireAuth } from '@sendwell/server-kit';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Deps } from '../deps.js';

/** /api/domains/{id}/scan, /check and /scans/{scanId}: scans asked for by the user, answered at once (202). */
export const scanRoutes: FastifyPluginAsyncZod<{ deps: Deps }> = async (app, { deps }) => {
  const { scans } = deps.services;
  app.addHook('onRequest', app.authenticate);

  app.route({
    ...apiRouteOptions(app.prefix, 'POST /api/domains/:id/scan', { response: { 202: scanDomainAnswer, ...errorResponses(400, 401, 403, 404, 429, 503) } }),
    handler: async (request, reply) => reply.status(202).send(await scans.request(requireAuth(request).user, request.params.id, 'manual')),
  });

  app.route({
    ...apiRouteOptions(app.prefix, 'POST /api/domains/:id/check', { response: { 202: blacklistCheckAnswer, ...errorResponses(400, 401, 403, 404, 429, 503) } }),
    handler: async (request, reply) => reply.status(202).send(await scans.request(requireAuth(request).user, request.params.id, 'blacklist')),
  });

  app.route({
    ...apiRouteOptions(app.prefix, 'GET /api/domains/:id/scans/:scanId', { response: { 200: scanStatusAnswer, ...errorResponses(400, 401, 404) } }),
    handler: async (request) => scans.status(requireAuth(request).user, request.params.id, request.params.scanId),
  });
};
