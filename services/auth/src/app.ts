import { authPlugin, createApp, registerHealth, sessionCookie, type App } from '@sendwell/server-kit';
import type { Deps } from './deps.js';
import { authRoutes } from './routes/auth.routes.js';
import { userRoutes } from './routes/user.routes.js';

/** The auth service as a Fastify instance with every route; it never listens (tests inject). */
export async function buildApp(deps: Deps): Promise<App> {
  const app = createApp({ logger: deps.logger, trustedProxies: deps.env.TRUSTED_PROXIES });
  // Tokens and session rows share one lifetime, read once from JWT_EXPIRES_IN.
  await app.register(authPlugin, {
    secret: deps.env.JWT_SECRET,
    db: deps.db,
    expiresIn: `${Math.round(deps.env.sessionTtlMs / 1000)}s`,
    cookie: sessionCookie(deps.env),
    adminEmail: deps.env.ADMIN_EMAIL,
  });
  registerHealth(app, { service: 'auth', db: deps.db });
  await app.register(authRoutes, { prefix: '/api/auth', deps });
  await app.register(userRoutes, { prefix: '/api/user', deps });
  return app;
}
