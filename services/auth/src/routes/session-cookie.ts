import type { AuthAnswer } from '@sendwell/contracts';
import { AUTH_COOKIE } from '@sendwell/server-kit';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { toUserDto } from '../mappers/user.mapper.js';
import type { ClientInfo, SignedIn } from '../services/auth.service.js';

export interface CookieSettings {
  secure: boolean;
  adminEmail: string | undefined;
}

const baseCookie = (secure: boolean) => ({ httpOnly: true, sameSite: 'lax' as const, path: '/', secure });

/**
 * Turns a new session into the answer of login, registration and email verification: a JWT naming
 * the user and the session, in the body (the web app keeps it as auth_token) and in the cookie.
 */
export function startSession(reply: FastifyReply, { user, session }: SignedIn, settings: CookieSettings): AuthAnswer {
  const token = reply.server.jwt.sign({ sub: String(user.id), sid: session.id });
  const maxAge = Math.max(0, Math.floor((session.expires.getTime() - Date.now()) / 1000));
  reply.setCookie(AUTH_COOKIE, token, { ...baseCookie(settings.secure), maxAge });
  return { token, user: toUserDto(user, settings.adminEmail) };
}

export function clearSessionCookie(reply: FastifyReply, secure: boolean): void {
  reply.clearCookie(AUTH_COOKIE, baseCookie(secure));
}

export function clientInfo(request: FastifyRequest): ClientInfo {
  return { userAgent: request.headers['user-agent']?.slice(0, 512) ?? null, ip: request.ip || null };
}
