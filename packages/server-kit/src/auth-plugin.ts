import fastifyCookie from '@fastify/cookie';
import fastifyJwt from '@fastify/jwt';
import { ADMIN_ONLY_MESSAGE, NOT_AUTHENTICATED } from '@sendwell/contracts';
import type { Database } from '@sendwell/db';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { forbidden, unauthorized } from './errors.js';
import { authUserColumns, type AuthContext, type AuthUser, type TokenClaims } from './auth-context.js';
import { SessionCache } from './session-cache.js';

export type { AuthContext, AuthUser, TokenClaims };

/** The session cookie every service reads and the auth service sets. */
export interface SessionCookie {
  name: string;
  secure: boolean;
}

/**
 * Secure in production unless `COOKIE_SECURE=false` says otherwise (plain HTTP behind no TLS), and
 * off in development and tests unless turned on. A Secure cookie is named `__Host-token`: browsers
 * then accept it only with Secure, `Path=/` and no `Domain`, so a sibling subdomain cannot plant or
 * overwrite the session (cookie tossing). Development keeps the plain `token`.
 */
export function sessionCookie(env: { NODE_ENV: string; COOKIE_SECURE?: boolean | undefined }): SessionCookie {
  const secure = env.COOKIE_SECURE ?? env.NODE_ENV === 'production';
  return { name: secure ? '__Host-token' : 'token', secure };
}

/**
 * The administrator is the user whose email is ADMIN_EMAIL, in any letter case (emails are stored
 * lower-cased and compared case-insensitively everywhere), and only once that email is verified:
 * otherwise anyone registering the address first, without owning the mailbox, would be admin.
 */
export function isAdministrator(user: Pick<AuthUser, 'email' | 'emailVerified'>, adminEmail: string | undefined): boolean {
  return adminEmail !== undefined && user.emailVerified && user.email.toLowerCase() === adminEmail.toLowerCase();
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

declare module 'fastify' {
  interface FastifyRequest {
    auth: AuthContext | null;
  }
  interface FastifyInstance {
    /** onRequest hook: answers 401 unless the request carries a live session. */
    authenticate: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
    /**
     * preHandler of every `/api/admin/*` route, after `authenticate`: 401 without a session, 403 with
     * the contracts' message for anyone but the administrator (`isAdministrator`).
     */
    requireAdmin: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
  }
}

declare module '@fastify/jwt' {
  interface FastifyJWT {
    payload: TokenClaims;
    user: TokenClaims;
  }
}

export interface AuthPluginOptions {
  secret: string;
  db: Database;
  /** Lifetime of issued tokens, e.g. "7d"; sessions expire with them. */
  expiresIn?: string;
  /** From `sessionCookie(env)`, so every service reads the name the auth service sets. */
  cookie: SessionCookie;
  /** ADMIN_EMAIL: who passes `requireAdmin`. */
  adminEmail: string | undefined;
}

/**
 * The token a request carries: `Authorization: Bearer` first (the web app sends auth_token from
 * storage), then the cookie. The JWT plugin verifies this same string, so the cache is keyed by it.
 */
function tokenExtractor(cookieName: string) {
  return (request: FastifyRequest): string | undefined => {
    const header = request.headers.authorization;
    if (header && /^Bearer\s/i.test(header)) {
      const parts = header.split(' ');
      return parts.length === 2 && parts[1] ? parts[1] : undefined;
    }
    return request.cookies?.[cookieName] || undefined;
  };
}

/**
 * The one way any service authenticates a request: a JWT from the `token` cookie or an
 * `Authorization: Bearer` header, verified, then its session looked up so revoked or expired
 * sessions are refused even while the token's signature is still good. Verified sessions are kept
 * in memory (`SessionCache`), trusted only after a shared read of the `auth_epoch` counter shows no
 * session or user row changed since, so a logout anywhere holds for the next request here.
 */
export const authPlugin = fp<AuthPluginOptions>(
  async (app, { secret, db, expiresIn = '7d', cookie, adminEmail }) => {
    const extractToken = tokenExtractor(cookie.name);
    await app.register(fastifyCookie);
    await app.register(fastifyJwt, {
      secret,
      sign: { expiresIn },
      verify: { extractToken },
      cookie: { cookieName: cookie.name, signed: false },
    });
    app.decorateRequest('auth', null);
    const cache = new SessionCache(db);

    app.decorate('authenticate', async (request: FastifyRequest) => {
      const token = extractToken(request);
      if (!token) throw unauthorized(NOT_AUTHENTICATED);
      const epoch = await cache.fresh();
      const cached = cache.get(token, Date.now());
      if (cached) {
        request.auth = cached;
        return;
      }
      let claims: TokenClaims & { exp?: number };
      try {
        claims = await request.jwtVerify<TokenClaims & { exp?: number }>();
      } catch {
        throw unauthorized(NOT_AUTHENTICATED);
      }
      if (!UUID.test(claims.sid)) throw unauthorized(NOT_AUTHENTICATED);
      const row = await db
        .selectFrom('sessions')
        .innerJoin('users', 'users.id', 'sessions.userId')
        .select(authUserColumns.map((column) => `users.${column}` as const))
        .select('sessions.expires as sessionExpires')
        .where('sessions.id', '=', claims.sid)
        .where('sessions.revokedAt', 'is', null)
        .where('sessions.expires', '>', new Date())
        .executeTakeFirst();
      if (!row || String(row.id) !== claims.sub) throw unauthorized(NOT_AUTHENTICATED);
      const { sessionExpires, ...user } = row;
      const auth: AuthContext = Object.freeze({ sessionId: claims.sid, user: Object.freeze(user) });
      const tokenExpires = claims.exp === undefined ? Number.POSITIVE_INFINITY : claims.exp * 1000;
      cache.set(token, auth, Math.min(tokenExpires, sessionExpires.getTime()), epoch);
      request.auth = auth;
    });

    app.decorate('requireAdmin', async (request: FastifyRequest) => {
      const { user } = requireAuth(request);
      if (!isAdministrator(user, adminEmail)) throw forbidden(ADMIN_ONLY_MESSAGE);
    });
  },
  { name: 'sendwell-auth', fastify: '5.x' },
);

/** The caller of a route behind `authenticate`; a route without it is a programming error. */
export function requireAuth(request: FastifyRequest): AuthContext {
  if (!request.auth) throw unauthorized(NOT_AUTHENTICATED);
  return request.auth;
}
