import {
  ACCOUNT_DELETED_MESSAGE,
  deleteUserAnswer,
  deleteUserBody,
  getUserAnswer,
  updateCurrencyBody,
  updateDateFormatBody,
  updateTimezoneBody,
  userUpdateAnswer,
  errorResponses,
} from '@sendwell/contracts';
import { requireAuth, sessionCookie } from '@sendwell/server-kit';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Deps } from '../deps.js';
import { toUserDto } from '../mappers/user.mapper.js';
import type { UserRow } from '../repositories/user.repository.js';
import { clearSessionCookie } from './session-cookie.js';

/** /api/user: the caller's own user and preferences. Every route needs a live session. */
export const userRoutes: FastifyPluginAsyncZod<{ deps: Deps }> = async (app, { deps }) => {
  const { users, auth } = deps.services;
  const answer = (message: string, row: UserRow) => ({ message, user: toUserDto(row, deps.env.ADMIN_EMAIL) });
  app.addHook('onRequest', app.authenticate);

  app.get('', { schema: { response: { 200: getUserAnswer, ...errorResponses(401) } } }, async (request) => {
    // Read now, so the plan is current, never from the token.
    return toUserDto(await users.get(requireAuth(request).user.id), deps.env.ADMIN_EMAIL);
  });

  app.delete(
    '',
    { schema: { body: deleteUserBody, response: { 200: deleteUserAnswer, ...errorResponses(400, 401, 429) } } },
    async (request, reply) => {
      await auth.deleteAccount(requireAuth(request).user, request.body.password);
      clearSessionCookie(reply, sessionCookie(deps.env));
      return reply.send({ message: ACCOUNT_DELETED_MESSAGE });
    },
  );

  app.put(
    '/timezone',
    { schema: { body: updateTimezoneBody, response: { 200: userUpdateAnswer, ...errorResponses(400, 401) } } },
    async (request) => answer('Timezone updated', await users.updateTimezone(requireAuth(request).user.id, request.body.timezone)),
  );

  app.put(
    '/date-format',
    { schema: { body: updateDateFormatBody, response: { 200: userUpdateAnswer, ...errorResponses(400, 401) } } },
    async (request) => answer('Date format updated', await users.updateDateFormat(requireAuth(request).user.id, request.body.dateFormat)),
  );

  app.put(
    '/currency',
    { schema: { body: updateCurrencyBody, response: { 200: userUpdateAnswer, ...errorResponses(400, 401, 403) } } },
    async (request) => answer('Currency updated', await users.updateCurrency(requireAuth(request).user.id, request.body.currency)),
  );

  app.post('/mark-preferences-set', { schema: { response: { 200: userUpdateAnswer, ...errorResponses(400, 401) } } }, async (request) =>
    answer('Preferences marked as set', await users.markPreferencesSet(requireAuth(request).user.id)),
  );

  app.post(
    '/dismiss-upgrade-notification',
    { schema: { response: { 200: userUpdateAnswer, ...errorResponses(400, 401) } } },
    async (request) => answer('Upgrade notification dismissed', await users.dismissUpgradeNotification(requireAuth(request).user.id)),
  );
};
