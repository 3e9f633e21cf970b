import { authPlugin, createApp, registerHealth, sessionCookie, type App } from '@sendwell/server-kit';
import type { Deps } from './deps.js';
import { alertRoutes } from './alerts/alerts.routes.js';
import { domainCheckRoutes } from './results/domain-checks.routes.js';
import { domainRoutes } from './domains/domains.routes.js';
import { emailVerifyRoutes } from './email-verify/email-verify.routes.js';
import { integrationRoutes } from './integrations/integrations.routes.js';
import { internalRoutes } from './stats/internal.routes.js';
import { sampleDomainRoutes } from './quick-check/sample-domains.routes.js';
import { scanRoutes } from './scans/scans.routes.js';

/** The domains service as a Fastify instance with every route; it never listens (tests inject). */
export async function buildApp(deps: Deps): Promise<App> {
  const app = createApp({ logger: deps.logger, trustedProxies: deps.env.TRUSTED_PROXIES, validateResponses: deps.env.NODE_ENV !== 'production' });
  await app.register(authPlugin, { secret: deps.env.JWT_SECRET, db: deps.db, cookie: sessionCookie(deps.env), adminEmail: deps.env.ADMIN_EMAIL });
  registerHealth(app, { service: 'domains', db: deps.db, redis: deps.redis });

  await app.register(domainRoutes, { prefix: '/api/domains', deps });
  await app.register(scanRoutes, { prefix: '/api/domains', deps });
  await app.register(domainCheckRoutes, { prefix: '/api/domain-checks', deps });
  // Absolute paths (/api/alerts..., /api/integrations..., /api/sample-domains/:domain, /api/email-verify): no prefix.
  await app.register(alertRoutes, { deps });
  await app.register(integrationRoutes, { deps });
  await app.register(sampleDomainRoutes, { deps });
  await app.register(emailVerifyRoutes, { deps });
  await app.register(internalRoutes, { deps });
  return app;
}
