import { errorResponses, okSchema } from '@sendwell/contracts';
import { requireAuth } from '@sendwell/server-kit';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AccountClosureService } from '../services/account-closure.service.js';

export interface InternalRoutesOptions {
  deps: { services: { accountClosure: AccountClosureService } };
}

/**
 * Calls of the other services, on this service's own port (the gateway never forwards `/internal`).
 * The caller passes on the user's session, so each call only ever acts on that user.
 */
export const internalRoutes: FastifyPluginAsyncZod<InternalRoutesOptions> = async (app, { deps }) => {
  app.addHook('onRequest', app.authenticate);

  /** Account deletion, before any row goes: the subscription ends now and the Stripe customer is deleted. */
  app.delete('/internal/billing-account', { schema: { response: { 200: okSchema, ...errorResponses(401, 503) } } }, async (request) => {
    await deps.services.accountClosure.close(requireAuth(request).user.id);
    return { success: true as const };
  });
};
