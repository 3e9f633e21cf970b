import { apiRoute, apiRouteOptions } from '@sendwell/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { SampleDomainService } from './sample-domain.service.js';

export interface SampleDomainRoutesOptions {
  deps: { services: { sampleDomains: SampleDomainService } };
}

const CALL = 'GET /api/sample-domains/:domain';

/**
 * GET /api/sample-domains/{domain}: the public quick check, no login. The gateway limits it per IP
 * (RATE_LIMIT_QUICK_CHECK); the service caps new domains across all clients (SAMPLE_DOMAINS_PER_MINUTE).
 * Paths are absolute: register without a prefix.
 *
 * HEAD is refused (405) rather than answered by the GET handler, as Fastify would by default: a GET
 * here may create a row and queue a scan, and a HEAD must not do that, nor slip past limits keyed on GET.
 */
export const sampleDomainRoutes: FastifyPluginAsyncZod<SampleDomainRoutesOptions> = async (app, { deps }) => {
  app.route({
    ...apiRouteOptions(app.prefix, CALL),
    exposeHeadRoute: false,
    handler: async (request) => deps.services.sampleDomains.get(request.params.domain),
  });
  app.head(apiRoute(CALL).path, async (_request, reply) => reply.status(405).header('allow', 'GET').send());
};
