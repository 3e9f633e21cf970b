import { createApp, type App } from '@sendwell/server-kit';
import type { Deps } from './deps.js';
import { registerMetrics } from './metrics.js';
import { proxyRoutes } from './proxy/proxy.routes.js';
import { registerHealthRoutes } from './routes/health.routes.js';
import { registerWeb } from './routes/web.routes.js';
import { registerSecurityHeaders } from './security.js';

/** The gateway: security headers, metrics, health, the `/api` proxy and the web app. It never listens. */
export async function buildApp(deps: Deps): Promise<App> {
  const { env, metrics } = deps;
  const app = createApp({ logger: deps.logger, trustProxy: env.TRUST_PROXY });

  registerMetrics(app, metrics);
  registerSecurityHeaders(app, { https: env.TRUST_HTTPS });
  registerHealthRoutes(app, deps);
  await app.register(proxyRoutes, {
    upstreams: deps.upstreams,
    rateLimiter: deps.rateLimiter,
    rateLimitRules: deps.rateLimitRules,
    onUpstreamFailure: (upstream, kind) => metrics.upstreamFailures.inc({ upstream: upstream.name, kind }),
  });
  await registerWeb(app, { distDir: env.WEB_DIST_DIR });
  return app;
}
