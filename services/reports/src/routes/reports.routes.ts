import { apiRouteOptions } from '@sendwell/contracts';
import { requireAuth } from '@sendwell/server-kit';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ReportService } from '../services/report.service.js';

export interface ReportRoutesOptions {
  deps: { services: { reports: ReportService } };
}

/** The Reports screen's calls (part 1 §7 and issue 15). Register with the `/api/reports` prefix. */
export const reportRoutes: FastifyPluginAsyncZod<ReportRoutesOptions> = async (app, { deps }) => {
  const { reports } = deps.services;
  app.addHook('onRequest', app.authenticate);

  app.route({
    ...apiRouteOptions(app.prefix, 'GET /api/reports'),
    // '/' rather than the prefix itself: /api/reports/ is served too, as before.
    url: '/',
    handler: async (request) => reports.list(requireAuth(request).user),
  });

  app.route({
    ...apiRouteOptions(app.prefix, 'POST /api/reports/generate'),
    handler: async (request, reply) => {
      const answer = await reports.generate(requireAuth(request).user, request.body);
      return reply.code(202).send(answer);
    },
  });

  app.route({
    ...apiRouteOptions(app.prefix, 'GET /api/reports/:id'),
    handler: async (request) => reports.get(requireAuth(request).user, request.params.id),
  });

  app.route({
    ...apiRouteOptions(app.prefix, 'GET /api/reports/:id/download'),
    handler: async (request, reply) => {
      const { format, inline } = request.query;
      const file = await reports.download(requireAuth(request).user, request.params.id, format);
      const disposition = inline === '1' && format === 'html' ? 'inline' : 'attachment';
      void reply
        .header('content-type', file.contentType)
        .header('content-disposition', `${disposition}; filename="${file.fileName}"`)
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'private, no-store');
      // The HTML is shown in the page's preview frame: no script, nothing loaded, framed by this origin only.
      if (format === 'html') void reply.header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; img-src data:; frame-ancestors 'self'");
      // The file goes out as it is, past the JSON schemas (which type `send` by the error answers only).
      return reply.send(file.body as never);
    },
  });

  app.route({
    ...apiRouteOptions(app.prefix, 'DELETE /api/reports/:id'),
    handler: async (request) => {
      await reports.delete(requireAuth(request).user, request.params.id);
      return { success: true as const };
    },
  });
};
