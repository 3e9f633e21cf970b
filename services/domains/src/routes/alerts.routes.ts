import { apiErrorSchema, listAlertsAnswer, listAlertsQuery, markAlertReadAnswer, markAlertReadParams, markAllAlertsReadAnswer } from '@sendwell/contracts';
import { requireAuth } from '@sendwell/server-kit';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AlertService } from '../services/alert.service.js';

export interface AlertRoutesOptions {
  deps: { services: { alerts: AlertService } };
}

const errors = { 400: apiErrorSchema, 401: apiErrorSchema, 403: apiErrorSchema, 404: apiErrorSchema };

/** The bell's alert calls (part 1 §7). Paths are absolute: register without a prefix. */
export const alertRoutes: FastifyPluginAsyncZod<AlertRoutesOptions> = async (app, { deps }) => {
  const alerts = deps.services.alerts;
  app.addHook('onRequest', app.authenticate);

  app.get('/api/alerts', { schema: { querystring: listAlertsQuery, response: { 200: listAlertsAnswer, ...errors } } }, async (request) =>
    alerts.list(requireAuth(request).user, request.query),
  );

  // Declared before /:id/mark-read only for reading order; find-my-way prefers the static segment anyway.
  app.post('/api/alerts/mark-all-read', { schema: { response: { 200: markAllAlertsReadAnswer, ...errors } } }, async (request) => ({
    success: true as const,
    updated: await alerts.markAllRead(requireAuth(request).user),
  }));

  app.post(
    '/api/alerts/:id/mark-read',
    { schema: { params: markAlertReadParams, response: { 200: markAlertReadAnswer, ...errors } } },
    async (request) => ({ success: true as const, alert: await alerts.markRead(requireAuth(request).user, request.params.id) }),
  );
};
