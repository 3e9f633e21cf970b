import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Deps } from '../deps.js';

/** POST /api/intake/tls-rpt/{token} (RFC 8460 §5.3). Register with the `/api/intake/tls-rpt` prefix. Stub: helper A. */
export const tlsRptRoutes: FastifyPluginAsyncZod<{ deps: Deps }> = async (app, { deps }) => {
  void app;
  void deps;
};
