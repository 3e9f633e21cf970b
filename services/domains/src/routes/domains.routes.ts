import {
  createDomainAnswer,
  createDomainBody,
  deleteDomainAnswer,
  dnsRecordsAnswer,
  domainIdParams,
  domainNameParams,
  getDomainAnswer,
  lastScanAnswer,
  listChecksAnswer,
  listDeletedDomainsAnswer,
  listDomainsAnswer,
  reputationAnswer,
  reputationHistoryAnswer,
  restoreDomainAnswer,
  restoreDomainBody,
  errorResponses,
} from '@sendwell/contracts';
import { requireAuth } from '@sendwell/server-kit';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Deps } from '../deps.js';

/** /api/domains: the domain lifecycle and the results of a domain's latest scan. Every call is signed in. */
export const domainRoutes: FastifyPluginAsyncZod<{ deps: Deps }> = async (app, { deps }) => {
  const { domains, checks } = deps.services;
  app.addHook('onRequest', app.authenticate);

  app.get('/', { schema: { response: { 200: listDomainsAnswer, ...errorResponses(401) } } }, async (request) =>
    domains.list(requireAuth(request).user),
  );

  app.get('/deleted', { schema: { response: { 200: listDeletedDomainsAnswer, ...errorResponses(401) } } }, async (request) =>
    domains.listDeleted(requireAuth(request).user),
  );

  app.post(
    '/',
    { schema: { body: createDomainBody, response: { 201: createDomainAnswer, 200: createDomainAnswer, ...errorResponses(400, 401, 403, 409) } } },
    async (request, reply) => {
      const answer = await domains.create(requireAuth(request).user, request.body.name);
      // A restored deletion is an existing resource coming back, not a new one.
      return reply.status(answer.restored ? 200 : 201).send(answer);
    },
  );

  app.post(
    '/restore',
    { schema: { body: restoreDomainBody, response: { 200: restoreDomainAnswer, ...errorResponses(400, 401, 403, 404, 409) } } },
    async (request) => domains.restore(requireAuth(request).user, request.body.name),
  );

  app.get(
    '/by-name/:domainName',
    { schema: { params: domainNameParams, response: { 200: getDomainAnswer, ...errorResponses(400, 401, 403, 404) } } },
    async (request) => domains.getByName(requireAuth(request).user, request.params.domainName),
  );

  app.get(
    '/name/:domainName/checks',
    { schema: { params: domainNameParams, response: { 200: listChecksAnswer, ...errorResponses(400, 401, 403, 404) } } },
    async (request) => checks.latestChecksByName(requireAuth(request).user, request.params.domainName),
  );

  app.get(
    '/name/:domainName/dns-records',
    { schema: { params: domainNameParams, response: { 200: dnsRecordsAnswer, ...errorResponses(400, 401, 403, 404) } } },
    async (request) => checks.dnsRecords(requireAuth(request).user, request.params.domainName),
  );

  app.get(
    '/:id',
    { schema: { params: domainIdParams, response: { 200: getDomainAnswer, ...errorResponses(400, 401, 404) } } },
    async (request) => domains.get(requireAuth(request).user, request.params.id),
  );

  app.delete(
    '/:id',
    { schema: { params: domainIdParams, response: { 200: deleteDomainAnswer, ...errorResponses(400, 401, 404) } } },
    async (request) => domains.remove(requireAuth(request).user, request.params.id),
  );

  app.get(
    '/:id/checks',
    { schema: { params: domainIdParams, response: { 200: listChecksAnswer, ...errorResponses(400, 401, 404) } } },
    async (request) => checks.latestChecks(requireAuth(request).user, request.params.id),
  );

  app.get(
    '/:id/reputation',
    { schema: { params: domainIdParams, response: { 200: reputationAnswer, ...errorResponses(400, 401, 403, 404) } } },
    async (request) => checks.reputation(requireAuth(request).user, request.params.id),
  );

  app.get(
    '/:id/reputation/history',
    { schema: { params: domainIdParams, response: { 200: reputationHistoryAnswer, ...errorResponses(400, 401, 403, 404) } } },
    async (request) => checks.reputationHistory(requireAuth(request).user, request.params.id),
  );

  app.get(
    '/:id/last-scan',
    { schema: { params: domainIdParams, response: { 200: lastScanAnswer, ...errorResponses(400, 401, 404) } } },
    async (request) => domains.lastScan(requireAuth(request).user, request.params.id),
  );
};
