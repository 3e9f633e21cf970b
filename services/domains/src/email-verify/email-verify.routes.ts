import { apiRouteOptions } from '@sendwell/contracts';
import { requireAuth } from '@sendwell/server-kit';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { EmailVerifyService } from './email-verify.service.js';

export interface EmailVerifyRoutesOptions {
  deps: { services: { emailVerify: EmailVerifyService } };
}

/**
 * POST /api/email-verify: login required, any plan; POST /api/email-verify/batch: the bulk mode,
 * standard and advanced. Paths are absolute: register without a prefix.
 */
export const emailVerifyRoutes: FastifyPluginAsyncZod<EmailVerifyRoutesOptions> = async (app, { deps }) => {
  app.addHook('onRequest', app.authenticate);

  app.route({
    ...apiRouteOptions(app.prefix, 'POST /api/email-verify'),
    handler: async (request) => deps.services.emailVerify.verify(requireAuth(request).user, request.body.email),
  });

  app.route({
    ...apiRouteOptions(app.prefix, 'POST /api/email-verify/batch'),
    handler: async (request) => deps.services.emailVerify.verifyBatch(requireAuth(request).user, request.body.emails),
  });
};
