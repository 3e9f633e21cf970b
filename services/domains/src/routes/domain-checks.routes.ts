import { domainHistoryAnswer, scanDetailAnswer, scanIdParams, errorResponses } from '@sendwell/contracts';
import { requireAuth } from '@sendwell/server-kit';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Deps } from '../deps.js';

/** /api/domain-checks: the history page and one scan's detail. */
export const domainCheckRoutes: FastifyPluginAsyncZod<{ deps: Deps }> = async (app, { deps }) => {
  const { checks } = deps.services;
  app.addHook('onRequest', app.authenticate);

  app.get('/history', { schema: { response: { 200: domainHistoryAnswer, ...errorResponses(401, 403) } } }, async (request) =>
    checks.history(requireAuth(request).user),
  );

  app.get(
    '/:scanId',
    { schema: { params: scanIdParams, response: { 200: scanDetailAnswer, ...errorResponses(400, 401, 404) } } },
    async (request) => checks.scanDetail(requireAuth(request).user, request.params.scanId),
  );
};
