import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Deps } from '../deps.js';

/** A domain's mail-flow calls. Register with the `/api/domains` prefix. Stub: helper D. */
export const mailFlowRoutes: FastifyPluginAsyncZod<{ deps: Deps }> = async (app, { deps }) => {
  void app;
  void deps;
};
