import { blacklistCheckAnswer, domainIdParams, domainScanParams, scanDomainAnswer, scanStatusAnswer, errorResponses } from '@sendwell/contracts';
import { requireAuth } from '@sendwell/server-kit';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Deps } from '../deps.js';

/** /api/domains/{id}/scan, /check and /scans/{scanId}: scans asked for by the user, answered at once (202). */
export const scanRoutes: FastifyPluginAsyncZod<{ deps: Deps }> = async (app, { deps }) => {
  const { scans } = deps.services;
  app.addHook('onRequest', app.authenticate);

  app.post(
    '/:id/scan',
    { schema: { params: domainIdParams, response: { 202: scanDomainAnswer, ...errorResponses(400, 401, 403, 404, 429, 503) } } },
    async (request, reply) => reply.status(202).send(await scans.request(requireAuth(request).user, request.params.id, 'manual')),
  );

  app.post(
    '/:id/check',
    { schema: { params: domainIdParams, response: { 202: blacklistCheckAnswer, ...errorResponses(400, 401, 403, 404, 429, 503) } } },
    async (request, reply) => reply.status(202).send(await scans.request(requireAuth(request).user, request.params.id, 'blacklist')),
  );

  app.get(
    '/:id/scans/:scanId',
    { schema: { params: domainScanParams, response: { 200: scanStatusAnswer, ...errorResponses(400, 401, 404) } } },
    async (request) => scans.status(requireAuth(request).user, request.params.id, request.params.scanId),
  );
};
