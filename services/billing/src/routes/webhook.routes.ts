import { apiRouteOptions } from '@sendwell/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { WebhookService } from '../services/webhook.service.js';

export interface WebhookRoutesOptions {
  deps: { services: { webhooks: WebhookService } };
}

/**
 * POST /api/webhooks/stripe. Stripe signs the exact bytes it sends, so this scope keeps the body raw
 * (a parsed and re-serialised JSON would not match the signature). No session: the signature is the proof.
 */
export const webhookRoutes: FastifyPluginAsyncZod<WebhookRoutesOptions> = async (app, { deps }) => {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));

  app.route({
    ...apiRouteOptions(app.prefix, 'POST /api/webhooks/stripe'),
    handler: async (request) => {
      const payload = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      const signature = request.headers['stripe-signature'];
      const event = deps.services.webhooks.verify(payload, Array.isArray(signature) ? signature[0] : signature);
      const outcome = await deps.services.webhooks.handle(event);
      request.log.info({ eventId: event.id, type: event.type, outcome }, 'stripe event');
      return { received: true as const };
    },
  });
};
