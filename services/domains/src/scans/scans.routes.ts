import { apiRouteOptions } from '@sendwell/contracts';
import { requireAuth } from '@sendwell/server-kit';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Deps } from '../deps.js';

/** /api/domains/{id}/scan, /check and /scans/{scanId}: scans asked for by the user, answered at once (202). */
export const scanRoutes: FastifyPluginAsyncZod<{ deps: Deps }> = async (app, { deps }) => {
  const { scans } = deps.services;
  app.addHook('onRequest', app.authenticate);

  app.route({
    ...apiRouteOptions(app.prefix, 'POST /api/domains/:id/scan'),
    handler: async (request, reply) => reply.status(202).send(await scans.request(requireAuth(request).user, request.params.id, 'manual')),
  });

  app.route({
    ...apiRouteOptions(app.prefix, 'POST /api/domains/:id/check'),
    handler: async (request, reply) => reply.status(202).send(await scans.request(requireAuth(request).user, request.params.id, 'blacklist')),
  });

  app.route({
    ...apiRouteOptions(app.prefix, 'GET /api/domains/:id/scans/:scanId'),
    handler: async (request) => scans.status(requireAuth(request).user, request.params.id, request.params.scanId),
  });
};
