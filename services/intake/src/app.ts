import { MAX_REPORT_UPLOAD_BYTES } from '@sendwell/contracts';
import { authPlugin, createApp, drainUnreadBodies, registerHealth, sessionCookie, type App } from '@sendwell/server-kit';
import type { Deps } from './deps.js';
import { mailTestsRoutes } from './mail-tests/mail-tests.routes.js';
import { mailFlowRoutes } from './routes/mail-flow.routes.js';
import { tlsRptRoutes } from './routes/tls-rpt.routes.js';
import { senderRequirementsRoutes } from './sender-requirements/sender-requirements.routes.js';

/** The intake's HTTP side as a Fastify instance with every route; it never listens (tests inject). */
export async function buildApp(deps: Deps): Promise<App> {
  const app = createApp({ logger: deps.logger, trustedProxies: deps.env.TRUSTED_PROXIES, validateResponses: deps.env.NODE_ENV !== 'production' });
  // Report files are up to 10 MB: an early refusal waits for the body, or the gateway would answer 502.
  drainUnreadBodies(app, MAX_REPORT_UPLOAD_BYTES);
  await app.register(authPlugin, { secret: deps.env.JWT_SECRET, db: deps.db, cookie: sessionCookie(deps.env), adminEmail: deps.env.ADMIN_EMAIL });
  registerHealth(app, { service: 'intake', db: deps.db, redis: deps.redis });
  await app.register(mailFlowRoutes, { prefix: '/api/domains', deps });
  await app.register(senderRequirementsRoutes, { prefix: '/api/domains', deps });
  await app.register(mailTestsRoutes, { prefix: '/api/mail-tests', deps });
  await app.register(tlsRptRoutes, { prefix: '/api/intake/tls-rpt', deps });
  return app;
}
