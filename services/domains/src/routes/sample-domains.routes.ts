import { apiErrorSchema, sampleDomainAnswer, sampleDomainParams } from '@sendwell/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { SampleDomainService } from '../services/sample-domain.service.js';

export interface SampleDomainRoutesOptions {
  deps: { services: { sampleDomains: SampleDomainService } };
}

/**
 * GET /api/sample-domains/{domain}: the public quick check, no login. The gateway limits it per IP
 * (RATE_LIMIT_QUICK_CHECK). Paths are absolute: register without a prefix.
 */
export const sampleDomainRoutes: FastifyPluginAsyncZod<SampleDomainRoutesOptions> = async (app, { deps }) => {
  app.get(
    '/api/sample-domains/:domain',
    { schema: { params: sampleDomainParams, response: { 200: sampleDomainAnswer, 400: apiErrorSchema, 503: apiErrorSchema } } },
    async (request) => deps.services.sampleDomains.get(request.params.domain),
  );
};
