import { rateLimited } from '@sendwell/server-kit';
import type { FastifyPluginAsync } from 'fastify';
import type { RateLimiter, RateLimitRule } from '../rate-limits.js';
import { forward, type ForwardHooks } from './forward.js';
import { matchRoute, pathOf } from './route-table.js';
import type { Upstreams } from './upstreams.js';

export interface ProxyRoutesOptions extends ForwardHooks {
  upstreams: Upstreams;
  /** Null when rate limiting is switched off. */
  rateLimiter: RateLimiter | null;
  rateLimitRules: RateLimitRule[];
}

export const PROXY_ROUTE = '/api/*';
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/**
 * Every `/api/*` call: looked up in the route table (404 JSON when no service owns it), rate
 * limited where a rule applies, then forwarded. Bodies stay unparsed streams in this context only.
 */
export const proxyRoutes: FastifyPluginAsync<ProxyRoutesOptions> = async (app, { upstreams, rateLimiter, rateLimitRules, onUpstreamFailure }) => {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, payload, done) => done(null, payload));

  app.route({
    method: METHODS,
    url: PROXY_ROUTE,
    handler: async (request, reply) => {
      const path = pathOf(request.url);
      const entry = matchRoute(path);
      if (!entry) return reply.callNotFound();
      if (rateLimiter) {
        const rule = rateLimitRules.find((r) => r.method === request.method && r.matches(path));
        if (rule) {
          const verdict = await rateLimiter.hit(rule, request.ip);
          if (!verdict.allowed) {
            request.log.info({ rule: rule.name, ip: request.ip }, 'rate limited');
            throw rateLimited(rule.message, verdict.retryAfterSeconds);
          }
        }
      }
      return forward(request, reply, upstreams[entry.upstream], { onUpstreamFailure });
    },
  });
};
