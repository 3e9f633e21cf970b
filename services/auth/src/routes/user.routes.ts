import { apiRouteOptions, ACCOUNT_DELETED_MESSAGE, PASSWORD_CHANGED_MESSAGE, PROFILE_UPDATED_MESSAGE, accountExportFileName } from '@sendwell/contracts';
import { requireAuth, sessionCookie } from '@sendwell/server-kit';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Deps } from '../deps.js';
import { toUserDto } from '../mappers/user.mapper.js';
import type { UserRow } from '../repositories/user.repository.js';
import type { Caller } from '../services/account.service.js';
import { clearSessionCookie } from './session-cookie.js';

/** /api/user: the caller's own user and preferences. Every route needs a live session. */
export const userRoutes: FastifyPluginAsyncZod<{ deps: Deps }> = async (app, { deps }) => {
  const { users, account } = deps.services;
  const answer = (message: string, row: UserRow) => ({ message, user: toUserDto(row, deps.env.ADMIN_EMAIL) });
  app.addHook('onRequest', app.authenticate);

  app.route({
    ...apiRouteOptions(app.prefix, 'GET /api/user'),
    handler: async (request) => {
      // Read now, so the plan is current, never from the token.
      return toUserDto(await users.get(requireAuth(request).user.id), deps.env.ADMIN_EMAIL);
    },
  });

  app.route({
    ...apiRouteOptions(app.prefix, 'DELETE /api/user'),
    handler: async (request, reply) => {
      await account.deleteAccount(callerOf(request), request.body.password);
      clearSessionCookie(reply, sessionCookie(deps.env));
      return reply.send({ message: ACCOUNT_DELETED_MESSAGE });
    },
  });

  app.route({
    ...apiRouteOptions(app.prefix, 'GET /api/user/export'),
    handler: async (request, reply) => {
      const document = await account.export(callerOf(request));
      return reply
        .header('content-disposition', `attachment; filename="${accountExportFileName(new Date(document.exportedAt))}"`)
        .header('cache-control', 'no-store')
        .send(document);
    },
  });

  app.route({
    ...apiRouteOptions(app.prefix, 'PUT /api/user/profile'),
    handler: async (request) => answer(PROFILE_UPDATED_MESSAGE, await account.updateProfile(requireAuth(request).user.id, request.body)),
  });

  app.route({
    ...apiRouteOptions(app.prefix, 'PUT /api/user/password'),
    handler: async (request) => {
      await account.changePassword(callerOf(request), request.body);
      return { message: PASSWORD_CHANGED_MESSAGE };
    },
  });

  app.route({
    ...apiRouteOptions(app.prefix, 'PUT /api/user/timezone'),
    handler: async (request) => answer('Timezone updated', await users.updateTimezone(requireAuth(request).user.id, request.body.timezone)),
  });

  app.route({
    ...apiRouteOptions(app.prefix, 'PUT /api/user/date-format'),
    handler: async (request) => answer('Date format updated', await users.updateDateFormat(requireAuth(request).user.id, request.body.dateFormat)),
  });

  app.route({
    ...apiRouteOptions(app.prefix, 'PUT /api/user/currency'),
    handler: async (request) => answer('Currency updated', await users.updateCurrency(requireAuth(request).user.id, request.body.currency)),
  });

  app.route({
    ...apiRouteOptions(app.prefix, 'POST /api/user/mark-preferences-set'),
    handler: async (request) => answer('Preferences marked as set', await users.markPreferencesSet(requireAuth(request).user.id)),
  });

  app.route({
    ...apiRouteOptions(app.prefix, 'POST /api/user/dismiss-upgrade-notification'),
    handler: async (request) => answer('Upgrade notification dismissed', await users.dismissUpgradeNotification(requireAuth(request).user.id)),
  });
};

/** The signed-in caller, with the credentials their request came with (billing acts on that session's user only). */
function callerOf(request: FastifyRequest): Caller {
  const { user, sessionId } = requireAuth(request);
  const credentials: Record<string, string> = {};
  if (request.headers.authorization) credentials.authorization = request.headers.authorization;
  if (request.headers.cookie) credentials.cookie = request.headers.cookie;
  return { user, sessionId, ip: request.ip, credentials };
}
