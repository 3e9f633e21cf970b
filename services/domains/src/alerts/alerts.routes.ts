import { apiRouteOptions } from '@sendwell/contracts';
import { requireAuth } from '@sendwell/server-kit';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AlertService } from './alert.service.js';
import type { NotificationPreferencesService } from './notification-preferences.service.js';

export interface AlertRoutesOptions {
  deps: { services: { alerts: AlertService; preferences: NotificationPreferencesService } };
}

/** The bell's alert calls (part 1 §7). Paths are absolute: register without a prefix. */
export const alertRoutes: FastifyPluginAsyncZod<AlertRoutesOptions> = async (app, { deps }) => {
  const { alerts, preferences } = deps.services;
  app.addHook('onRequest', app.authenticate);

  // Settings → Notifications: open to every plan (what a plan does not deliver is simply not sent).
  app.route({
    ...apiRouteOptions(app.prefix, 'GET /api/alerts/preferences'),
    handler: async (request) => preferences.get(requireAuth(request).user.id),
  });
  app.route({
    ...apiRouteOptions(app.prefix, 'PUT /api/alerts/preferences'),
    handler: async (request) => ({ success: true as const, preferences: await preferences.save(requireAuth(request).user.id, request.body) }),
  });

  app.route({
    ...apiRouteOptions(app.prefix, 'GET /api/alerts'),
    handler: async (request) => alerts.list(requireAuth(request).user, request.query),
  });

  // Declared before /:id/mark-read only for reading order; find-my-way prefers the static segment anyway.
  app.route({
    ...apiRouteOptions(app.prefix, 'POST /api/alerts/mark-all-read'),
    handler: async (request) => ({
      success: true as const,
      updated: await alerts.markAllRead(requireAuth(request).user),
    }),
  });

  app.route({
    ...apiRouteOptions(app.prefix, 'POST /api/alerts/:id/mark-read'),
    handler: async (request) => ({ success: true as const, alert: await alerts.markRead(requireAuth(request).user, request.params.id) }),
  });
};
