import { createApp, type App } from '@sendwell/server-kit';
import { registerServerStats } from './admin/server-stats.routes.js';
import { crossSiteCheck } from './csrf.js';
import type { Deps } from './deps.js';
import { countRequests, registerMetricsRoute } from './metrics.js';
import { proxyRoutes } from './proxy/proxy.routes.js';
import { registerDocsRoutes } from './routes/docs.routes.js';
import { registerHealthRoutes, registerLiveness } from './routes/health.routes.js';
import { registerWeb } from './routes/web.routes.js';
import { registerSecurityHeaders } from './security.js';
import { closeAfterRefusedBody, refuseTunnels, refuseUnknownExpectations } from './server-events.js';

/**
 * The public gateway: security headers, request metrics, `Expect` and `CONNECT` handling,
 * liveness, the API description (`/api/openapi.json`, `/api/docs`), the `/api` proxy and the web app. It never listens.
 */
export async function buildApp(deps: Deps): Promise<App> {
  const { env, metrics } = deps;
  const app = createApp({ logger: deps.logger, trustedProxies: env.TRUSTED_PROXIES, bodyLimit: env.BODY_LIMIT_BYTES });

  countRequests(app, metrics);
  registerSecurityHeaders(app, { https: env.TRUST_HTTPS });
  refuseUnknownExpectations(app);
  refuseTunnels(app);
  closeAfterRefusedBody(app);
  registerLiveness(app);
  registerDocsRoutes(app);
  registerServerStats(app, { upstreams: deps.upstreams, metrics, rateLimiter: deps.rateLimiter, rateLimitRules: deps.rateLimitRules });
  await app.register(proxyRoutes, {
    upstreams: deps.upstreams,
    rateLimiter: deps.rateLimiter,
    rateLimitRules: deps.rateLimitRules,
    crossSiteCheck: crossSiteCheck({ publicUrl: env.APP_URL, https: env.TRUST_HTTPS }),
    bodyLimit: env.BODY_LIMIT_BYTES,
    onUpstreamFailure: (upstream, kind) => metrics.upstreamFailures.inc({ upstream: upstream.name, kind }),
  });
  // Source maps would hand out the app's source: production keeps them in the build (for error tracking) unserved.
  await registerWeb(app, { distDir: env.WEB_DIST_DIR, sourceMaps: env.NODE_ENV !== 'production' });
  return app;
}

/**
 * The internal listener (INTERNAL_HOST:INTERNAL_PORT, loopback by default): `/metrics` and
 * `/health/ready`, which tell anyone who can read them how the system is built and how it is doing.
 */
export function buildInternalApp(deps: Deps): App {
  const app = createApp({ logger: deps.logger, trustedProxies: deps.env.TRUSTED_PROXIES });
  registerMetricsRoute(app, deps.metrics);
  registerHealthRoutes(app, deps);
  return app;
}
