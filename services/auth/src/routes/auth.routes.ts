import { apiRouteOptions, FORGOT_PASSWORD_MESSAGE } from '@sendwell/contracts';
import { sessionCookie, type TokenClaims } from '@sendwell/server-kit';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Deps } from '../deps.js';
import { PASSWORD_RESET_SUCCESS } from '../services/password-reset.service.js';
import { VERIFICATION_SENT_MESSAGE } from '../services/auth.service.js';
import { clearSessionCookie, clientInfo, startSession } from './session-cookie.js';

/** /api/auth: registration, sign-in and out, email verification and password reset. */
export const authRoutes: FastifyPluginAsyncZod<{ deps: Deps }> = async (app, { deps }) => {
  const { auth, passwordReset } = deps.services;
  const cookie = { cookie: sessionCookie(deps.env), adminEmail: deps.env.ADMIN_EMAIL };

  app.route({
    ...apiRouteOptions(app.prefix, 'POST /api/auth/register'),
    handler: async (request, reply) => {
      const result = await auth.register(request.body, clientInfo(request));
      if (result.kind === 'verification-sent') {
        return reply.status(201).send({ emailVerificationRequired: true, message: VERIFICATION_SENT_MESSAGE });
      }
      return reply.status(201).send(startSession(reply, result, cookie));
    },
  });

  app.route({
    ...apiRouteOptions(app.prefix, 'POST /api/auth/login'),
    handler: async (request, reply) => {
      const signedIn = await auth.login(request.body, clientInfo(request));
      return reply.send(startSession(reply, signedIn, cookie));
    },
  });

  app.route({
    ...apiRouteOptions(app.prefix, 'POST /api/auth/logout'),
    handler: async (request, reply) => {
      // Logging out always succeeds for the caller: an expired or unknown token has nothing to revoke.
      const claims = await request.jwtVerify<TokenClaims>().catch(() => null);
      if (claims) await auth.logout(claims);
      clearSessionCookie(reply, cookie.cookie);
      return reply.send({ success: true as const });
    },
  });

  app.route({
    ...apiRouteOptions(app.prefix, 'POST /api/auth/forgot-password'),
    handler: async (request, reply) => {
      passwordReset.requestReset(request.body.email);
      return reply.send({ message: FORGOT_PASSWORD_MESSAGE });
    },
  });

  app.route({
    ...apiRouteOptions(app.prefix, 'POST /api/auth/reset-password-with-token'),
    handler: async (request, reply) => {
      await passwordReset.resetPassword(request.body.token, request.body.newPassword);
      return reply.send({ message: PASSWORD_RESET_SUCCESS });
    },
  });

  app.route({
    ...apiRouteOptions(app.prefix, 'GET /api/auth/verify-email'),
    handler: async (request, reply) => {
      const signedIn = await auth.verifyEmail(request.query.token, clientInfo(request));
      return reply.send(startSession(reply, signedIn, cookie));
    },
  });
};
