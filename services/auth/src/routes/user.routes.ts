import { getUserAnswer, updateCurrencyBody, updateDateFormatBody, updateTimezoneBody, userUpdateAnswer } from '@sendwell/contracts';
import { requireAuth } from '@sendwell/server-kit';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Deps } from '../deps.js';
import { toUserDto } from '../mappers/user.mapper.js';
import type { UserRow } from '../repositories/user.repository.js';
import { errorResponses } from './responses.js';

/** /api/user: the caller's own user and preferences. Every route needs a live session. */
export const userRoutes: FastifyPluginAsyncZod<{ deps: Deps }> = async (app, { deps }) => {
  const { users } = deps.services;
  const answer = (message: string, row: UserRow) => ({ message, user: toUserDto(row, deps.env.ADMIN_EMAIL) });
  app.addHook('onRequest', app.authenticate);

  app.get('', { schema: { response: { 200: getUserAnswer, ...errorResponses(401) } } }, async (request) => {
    // The session lookup already read the user's row; the plan in it is current, never from the token.
    return toUserDto(requireAuth(request).user, deps.env.ADMIN_EMAIL);
  });

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
