import { apiRouteOptions } from '@sendwell/contracts';
import { requireAuth } from '@sendwell/server-kit';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Deps } from '../deps.js';
import { SenderRequirementsService } from './sender-requirements.service.js';

/** A domain's sender requirements verdict (issue 26). Register with the `/api/domains` prefix. */
export const senderRequirementsRoutes: FastifyPluginAsyncZod<{ deps: Deps }> = async (app, { deps }) => {
  const service = new SenderRequirementsService(deps);
  app.addHook('onRequest', app.authenticate);

  app.route({
    ...apiRouteOptions(app.prefix, 'GET /api/domains/:id/sender-requirements'),
    handler: async (request) => service.get(requireAuth(request).user, request.params.id),
  });
};
