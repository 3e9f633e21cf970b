import fastifyCookie from '@fastify/cookie';
import fastifyJwt from '@fastify/jwt';
import { NOT_AUTHENTICATED } from '@sendwell/contracts';
import type { Database, Selectable, Users } from '@sendwell/db';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { unauthorized } from './errors.js';
import { SessionCache } from './session-cache.js';

export const AUTH_COOKIE = 'token';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** What a verified request knows about its caller. The plan is read from the database, never the token. */
export interface AuthContext {
  sessionId: string;
  user: AuthUser;
}
export type AuthUser = Selectable<Users>;

/** The JWT's claims: the user and the session it belongs to, so logout can revoke it. */
export interface TokenClaims {
  sub: string;
  sid: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    auth: AuthContext | null;
  }
  interface FastifyInstance {
    /** onRequest hook: answers 401 unless the request carries a live session. */
    authenticate: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
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
}

/**
 * The token a request carries: `Authorization: Bearer` first (the web app sends auth_token from
 * storage), then the cookie. The JWT plugin verifies this same string, so the cache is keyed by it.
 */
function extractToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (header && /^Bearer\s/i.test(header)) {
    const parts = header.split(' ');
    return parts.length === 2 && parts[1] ? parts[1] : undefined;
  }
  return request.cookies?.[AUTH_COOKIE] || undefined;
}

/**
 * The one way any service authenticates a request: a JWT from the `token` cookie or an
 * `Authorization: Bearer` header, verified, then its session looked up so revoked or expired
 * sessions are refused even while the token's signature is still good. Verified sessions are kept
 * in memory (`SessionCache`), trusted only after a shared read of the `auth_epoch` counter shows no
 * session or user row changed since, so a logout anywhere holds for the next request here.
 */
export const authPlugin = fp<AuthPluginOptions>(
  async (app, { secret, db, expiresIn = '7d' }) => {
    await app.register(fastifyCookie);
    await app.register(fastifyJwt, {
      secret,
      sign: { expiresIn },
      verify: { extractToken },
      cookie: { cookieName: AUTH_COOKIE, signed: false },
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
        .selectAll('users')
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
  },
  { name: 'sendwell-auth', fastify: '5.x' },
);

/** The caller of a route behind `authenticate`; a route without it is a programming error. */
export function requireAuth(request: FastifyRequest): AuthContext {
  if (!request.auth) throw unauthorized(NOT_AUTHENTICATED);
  return request.auth;
}
