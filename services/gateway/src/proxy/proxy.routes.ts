import { badRequest, forbidden } from '@sendwell/server-kit';
import type { FastifyPluginAsync } from 'fastify';
import type { CrossSiteCheck } from '../csrf.js';
import { enforceRateLimit, type RateLimiter, type RateLimitRule } from '../rate-limits.js';
import { forward, type ForwardOptions } from './forward.js';
import { normalizeRequestTarget } from './request-target.js';
import { EVENT_STREAM_IDLE_MS, matchRoute, type RouteEntry } from './route-table.js';
import type { Upstreams } from './upstreams.js';

export interface ProxyRoutesOptions extends ForwardOptions {
  upstreams: Upstreams;
  /** Null when rate limiting is switched off. */
  rateLimiter: RateLimiter | null;
  rateLimitRules: RateLimitRule[];
  crossSiteCheck: CrossSiteCheck;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The route-table entry a proxied call matched (null before, or when none did): the metrics' route label. */
    routeTableEntry: RouteEntry | null;
  }
}

export const PROXY_ROUTE = '/api/*';
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/**
 * Every `/api/*` call: its path normalised (400 when it cannot be), looked up in the route table
 * (404 JSON when no service owns it), refused when cross-site (403), rate limited where a rule
 * applies, then forwarded with the normalised path, so the service routes exactly what was checked.
 * Bodies stay unparsed streams in this context only, refused (413) past `bodyLimit` bytes.
 */
export const proxyRoutes: FastifyPluginAsync<ProxyRoutesOptions> = async (app, { upstreams, rateLimiter, rateLimitRules, crossSiteCheck, bodyLimit, onUpstreamFailure }) => {
  app.decorateRequest('routeTableEntry', null);
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, payload, done) => done(null, payload));

  app.route({
    method: METHODS,
    url: PROXY_ROUTE,
    handler: async (request, reply) => {
      const target = normalizeRequestTarget(request.url);
      if (!target.ok) throw badRequest(target.message);
      const entry = matchRoute(target.path);
      if (!entry) return reply.callNotFound();
      request.routeTableEntry = entry;
      const crossSite = crossSiteCheck(request);
      if (crossSite) throw forbidden(crossSite);
      await enforceRateLimit(rateLimiter, rateLimitRules, target.path, request);
      return forward(request, reply, upstreams[entry.upstream], `${target.path}${target.search}`, {
        bodyLimit: entry.bodyLimit ?? bodyLimit,
        onUpstreamFailure,
        ...(entry.eventStream ? { bodyTimeoutMs: EVENT_STREAM_IDLE_MS } : {}),
      });
    },
  });
};
