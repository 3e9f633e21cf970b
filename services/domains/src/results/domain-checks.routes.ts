import { apiRouteOptions, domainHistoryAnswer, scanDetailAnswer, errorResponses } from '@sendwell/contracts';
import { requireAuth } from '@sendwell/server-kit';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Deps } from '../deps.js';

/** /api/domain-checks: the history page and one scan's detail. */
export const domainCheckRoutes: FastifyPluginAsyncZod<{ deps: Deps }> = async (app, { deps }) => {
  const { checks } = deps.services;
  app.addHook('onRequest', app.authenticate);

  app.route({
    ...apiRouteOptions(app.prefix, 'GET /api/domain-checks/history', { response: { 200: domainHistoryAnswer, ...errorResponses(401, 403) } }),
    handler: async (request) => checks.history(requireAuth(request).user),
  });

  app.route({
    ...apiRouteOptions(app.prefix, 'GET /api/domain-checks/:scanId', { response: { 200: scanDetailAnswer, ...errorResponses(400, 401, 404) } }),
    handler: async (request) => checks.scanDetail(requireAuth(request).user, request.params.scanId),
  });
};
