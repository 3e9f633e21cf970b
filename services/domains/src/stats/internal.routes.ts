import { domainsInternalStatsSchema, errorResponses } from '@sendwell/contracts';
import { serviceStats } from '@sendwell/server-kit';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Deps } from '../deps.js';

/**
 * `GET /internal/system-stats`: this process's figures and the whole system's (Postgres counts, queue
 * depths), which the gateway gathers for `/api/admin/server-stats`. The counts are business figures,
 * so the administrator's session is required here too; the gateway forwards it.
 */
export const internalRoutes: FastifyPluginAsyncZod<{ deps: Deps }> = async (app, { deps }) => {
  app.get(
    '/internal/system-stats',
    { onRequest: [app.authenticate, app.requireAdmin], logLevel: 'warn', schema: { response: { 200: domainsInternalStatsSchema, ...errorResponses(401, 403) } } },
    async () => ({ ...serviceStats('domains', deps.db), system: await deps.services.systemStats.read() }),
  );
};
