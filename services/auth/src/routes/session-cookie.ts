import type { AuthAnswer } from '@sendwell/contracts';
import type { SessionCookie } from '@sendwell/server-kit';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { toUserDto } from '../mappers/user.mapper.js';
import type { ClientInfo, SignedIn } from '../services/auth.service.js';

export interface CookieSettings {
  cookie: SessionCookie;
  adminEmail: string | undefined;
}

/** `Path=/` and no `Domain`, as the `__Host-` prefix of the Secure cookie requires. */
const cookieOptions = ({ secure }: SessionCookie) => ({ httpOnly: true, sameSite: 'lax' as const, path: '/', secure });

/**
 * Turns a new session into the answer of login, registration and email verification: a JWT naming
 * the user and the session, in the body (the web app keeps it as auth_token) and in the cookie.
 */
export function startSession(reply: FastifyReply, { user, session }: SignedIn, settings: CookieSettings): AuthAnswer {
  const token = reply.server.jwt.sign({ sub: String(user.id), sid: session.id });
  const maxAge = Math.max(0, Math.floor((session.expires.getTime() - Date.now()) / 1000));
  reply.setCookie(settings.cookie.name, token, { ...cookieOptions(settings.cookie), maxAge });
  return { token, user: toUserDto(user, settings.adminEmail) };
}

export function clearSessionCookie(reply: FastifyReply, cookie: SessionCookie): void {
  reply.clearCookie(cookie.name, cookieOptions(cookie));
}

export function clientInfo(request: FastifyRequest): ClientInfo {
  return { userAgent: request.headers['user-agent']?.slice(0, 512) ?? null, ip: request.ip || null };
}
