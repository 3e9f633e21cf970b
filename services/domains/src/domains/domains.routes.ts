import { apiRouteOptions } from '@sendwell/contracts';
import { requireAuth } from '@sendwell/server-kit';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Deps } from '../deps.js';

/** /api/domains: the domain lifecycle and the results of a domain's latest scan. Every call is signed in. */
export const domainRoutes: FastifyPluginAsyncZod<{ deps: Deps }> = async (app, { deps }) => {
  const { domains, checks } = deps.services;
  app.addHook('onRequest', app.authenticate);

  app.route({
    ...apiRouteOptions(app.prefix, 'GET /api/domains'),
    // '/' rather than the prefix itself: /api/domains/ is served too, as before.
    url: '/',
    handler: async (request) => domains.list(requireAuth(request).user),
  });

  app.route({
    ...apiRouteOptions(app.prefix, 'GET /api/domains/deleted'),
    handler: async (request) => domains.listDeleted(requireAuth(request).user),
  });

  app.route({
    ...apiRouteOptions(app.prefix, 'POST /api/domains'),
    // '/' rather than the prefix itself: /api/domains/ is served too, as before.
    url: '/',
    handler: async (request, reply) => {
      const answer = await domains.create(requireAuth(request).user, request.body.name);
      // A restored deletion is an existing resource coming back, not a new one.
      return reply.status(answer.restored ? 200 : 201).send(answer);
    },
  });

  app.route({
    ...apiRouteOptions(app.prefix, 'POST /api/domains/restore'),
    handler: async (request) => domains.restore(requireAuth(request).user, request.body.name),
  });

  app.route({
    ...apiRouteOptions(app.prefix, 'GET /api/domains/by-name/:domainName'),
    handler: async (request) => domains.getByName(requireAuth(request).user, request.params.domainName),
  });

  app.route({
    ...apiRouteOptions(app.prefix, 'GET /api/domains/name/:domainName/checks'),
    handler: async (request) => checks.latestChecksByName(requireAuth(request).user, request.params.domainName),
  });

  app.route({
    ...apiRouteOptions(app.prefix, 'GET /api/domains/name/:domainName/dns-records'),
    handler: async (request) => checks.dnsRecords(requireAuth(request).user, request.params.domainName),
  });

  app.route({
    ...apiRouteOptions(app.prefix, 'GET /api/domains/:id'),
    handler: async (request) => domains.get(requireAuth(request).user, request.params.id),
  });

  app.route({
    ...apiRouteOptions(app.prefix, 'DELETE /api/domains/:id'),
    handler: async (request) => domains.remove(requireAuth(request).user, request.params.id),
  });

  app.route({
    ...apiRouteOptions(app.prefix, 'GET /api/domains/:id/checks'),
    handler: async (request) => checks.latestChecks(requireAuth(request).user, request.params.id),
  });

  app.route({
    ...apiRouteOptions(app.prefix, 'GET /api/domains/:id/reputation'),
    handler: async (request) => checks.reputation(requireAuth(request).user, request.params.id),
  });

  app.route({
    ...apiRouteOptions(app.prefix, 'GET /api/domains/:id/reputation/history'),
    handler: async (request) => checks.reputationHistory(requireAuth(request).user, request.params.id),
  });

  app.route({
    ...apiRouteOptions(app.prefix, 'GET /api/domains/:id/history/days'),
    handler: async (request) => checks.historyDays(requireAuth(request).user, request.params.id, request.query),
  });

  app.route({
    ...apiRouteOptions(app.prefix, 'GET /api/domains/:id/last-scan'),
    handler: async (request) => domains.lastScan(requireAuth(request).user, request.params.id),
  });
};
