import { apiRouteOptions, domainIdParams, MAX_REPORT_UPLOAD_BYTES, UPLOAD_EMPTY_MESSAGE } from '@sendwell/contracts';
import { queueSenderRequirementsRefresh } from '@sendwell/scan-engine';
import { badRequest, requireAuth } from '@sendwell/server-kit';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Deps } from '../deps.js';
import { MailFlowService } from '../mail-flow/mail-flow.service.js';
import { ReportRefusal } from '../reports/refusal.js';
import { ingestReportFile } from '../storage/ingest-report-file.js';

/** A domain's mail-flow calls (issue 25). Register with the `/api/domains` prefix. */
export const mailFlowRoutes: FastifyPluginAsyncZod<{ deps: Deps }> = async (app, { deps }) => {
  const mailFlow = new MailFlowService(deps);
  app.addHook('onRequest', app.authenticate);

  app.route({
    ...apiRouteOptions(app.prefix, 'GET /api/domains/:id/report-addresses'),
    handler: async (request) => mailFlow.reportAddresses(requireAuth(request).user, request.params.id),
  });

  app.route({
    ...apiRouteOptions(app.prefix, 'PUT /api/domains/:id/mail-flow/settings'),
    // Plan and ownership before the body is judged: another user's domain is 404 whatever was sent.
    preValidation: async (request) => {
      const id = domainIdParams.safeParse(request.params);
      if (id.success) await mailFlow.ownedDomain(requireAuth(request).user, id.data.id);
    },
    handler: async (request) => mailFlow.saveSettings(requireAuth(request).user, request.params.id, request.body.failureReports),
  });

  app.route({
    ...apiRouteOptions(app.prefix, 'GET /api/domains/:id/mail-flow'),
    handler: async (request) => mailFlow.mailFlow(requireAuth(request).user, request.params.id, request.query),
  });

  app.route({
    ...apiRouteOptions(app.prefix, 'GET /api/domains/:id/tls-reports'),
    handler: async (request) => mailFlow.tlsReports(requireAuth(request).user, request.params.id, request.query),
  });

  app.route({
    ...apiRouteOptions(app.prefix, 'GET /api/domains/:id/dmarc-reports'),
    handler: async (request) => mailFlow.receivedReports(requireAuth(request).user, request.params.id),
  });

  app.route({
    ...apiRouteOptions(app.prefix, 'GET /api/domains/:id/dmarc-reports/:reportId/source'),
    handler: async (request, reply) => {
      const file = await mailFlow.reportFile(requireAuth(request).user, request.params.id, request.params.reportId);
      void reply
        .header('content-type', file.contentType)
        .header('content-disposition', `attachment; filename="${file.fileName}"`)
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'private, no-store');
      // The file goes out as it is, past the JSON schemas (which type `send` by the error answers only).
      return reply.send(file.body as never);
    },
  });

  // The upload's body is the report file as its sender sent it, whatever its type (the reader sniffs
  // the bytes): in a scope of its own so the other calls keep their JSON parser.
  await app.register(async (scope) => {
    const upload = scope.withTypeProvider<ZodTypeProvider>();
    upload.removeAllContentTypeParsers();
    upload.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: MAX_REPORT_UPLOAD_BYTES }, (_request, body, done) => done(null, body));
    // Plan and ownership before up to 10 MB is read: the id is checked again, validated, by the handler.
    upload.addHook('preParsing', async (request) => {
      const id = domainIdParams.safeParse(request.params);
      if (id.success) await mailFlow.ownedDomain(requireAuth(request).user, id.data.id);
    });

    upload.route({
      ...apiRouteOptions(upload.prefix, 'POST /api/domains/:id/dmarc-reports'),
      bodyLimit: MAX_REPORT_UPLOAD_BYTES,
      handler: async (request, reply) => {
        const domain = await mailFlow.ownedDomain(requireAuth(request).user, request.params.id);
        const bytes = request.body;
        if (!(bytes instanceof Uint8Array) || bytes.length === 0) throw badRequest(UPLOAD_EMPTY_MESSAGE);
        try {
          const answer = await ingestReportFile(deps.db, domain, { bytes, contentType: request.headers['content-type'] ?? null, channel: 'upload', messageId: null }, undefined, deps.reportReader);
          // New aggregate records change the mail-flow evidence of the domain's sender requirements.
          if (answer.accepted.some((a) => a.kind === 'aggregate')) await queueSenderRequirementsRefresh(deps.queues, domain.id, deps.logger);
          return await reply.code(202).send(answer);
        } catch (error) {
          if (error instanceof ReportRefusal) throw badRequest(error.message);
          throw error;
        }
      },
    });
  });
};
