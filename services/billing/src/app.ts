import { authPlugin, createApp, registerHealth, sessionCookie, type App } from '@sendwell/server-kit';
import type { Deps } from './deps.js';
import { billingRoutes } from './routes/billing.routes.js';
import { internalRoutes } from './routes/internal.routes.js';
import { webhookRoutes } from './routes/webhook.routes.js';

/** The billing service as a Fastify instance with every route; it never listens (tests inject). */
export async function buildApp(deps: Deps): Promise<App> {
  const app = createApp({ logger: deps.logger, trustedProxies: deps.env.TRUSTED_PROXIES, validateResponses: deps.env.NODE_ENV !== 'production' });
  await app.register(authPlugin, { secret: deps.env.JWT_SECRET, db: deps.db, cookie: sessionCookie(deps.env), adminEmail: deps.env.ADMIN_EMAIL });
  registerHealth(app, { service: 'billing', db: deps.db });
  await app.register(webhookRoutes, { deps });
  await app.register(billingRoutes, { deps });
  await app.register(internalRoutes, { deps });
  return app;
}
