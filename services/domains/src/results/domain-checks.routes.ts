import { apiRouteOptions } from '@sendwell/contracts';
import { requireAuth } from '@sendwell/server-kit';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Deps } from '../deps.js';

/** /api/domain-checks: the history page and one scan's detail. */
export const domainCheckRoutes: FastifyPluginAsyncZod<{ deps: Deps }> = async (app, { deps }) => {
  const { checks } = deps.services;
  app.addHook('onRequest', app.authenticate);

  app.route({
    ...apiRouteOptions(app.prefix, 'GET /api/domain-checks/history'),
    handler: async (request) => checks.history(requireAuth(request).user, request.query),
  });

  app.route({
    ...apiRouteOptions(app.prefix, 'GET /api/domain-checks/:scanId'),
    handler: async (request) => checks.scanDetail(requireAuth(request).user, request.params.scanId),
  });
};
