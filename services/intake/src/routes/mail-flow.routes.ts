import {
  domainIdParams,
  errorResponses,
  mailFlowAnswer,
  mailFlowSettingsBody,
  mailFlowWindowQuery,
  okMailFlowSettingsAnswer,
  receivedReportParams,
  receivedReportsAnswer,
  reportAddressesAnswer,
  tlsReportsAnswer,
} from '@sendwell/contracts';
import { requireAuth } from '@sendwell/server-kit';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Deps } from '../deps.js';
import { MailFlowService } from '../mail-flow/mail-flow.service.js';

/** A domain's mail-flow calls (issue 25). Register with the `/api/domains` prefix. */
export const mailFlowRoutes: FastifyPluginAsyncZod<{ deps: Deps }> = async (app, { deps }) => {
  const mailFlow = new MailFlowService(deps);
  app.addHook('onRequest', app.authenticate);

  app.get('/:id/report-addresses', { schema: { params: domainIdParams, response: { 200: reportAddressesAnswer, ...errorResponses(400, 401, 403, 404) } } }, async (request) =>
    mailFlow.reportAddresses(requireAuth(request).user, request.params.id),
  );

  app.put(
    '/:id/mail-flow/settings',
    { schema: { params: domainIdParams, body: mailFlowSettingsBody, response: { 200: okMailFlowSettingsAnswer, ...errorResponses(400, 401, 403, 404) } } },
    async (request) => mailFlow.saveSettings(requireAuth(request).user, request.params.id, request.body.failureReports),
  );

  app.get(
    '/:id/mail-flow',
    { schema: { params: domainIdParams, querystring: mailFlowWindowQuery, response: { 200: mailFlowAnswer, ...errorResponses(400, 401, 403, 404) } } },
    async (request) => mailFlow.mailFlow(requireAuth(request).user, request.params.id, request.query),
  );

  app.get(
    '/:id/tls-reports',
    { schema: { params: domainIdParams, querystring: mailFlowWindowQuery, response: { 200: tlsReportsAnswer, ...errorResponses(400, 401, 403, 404) } } },
    async (request) => mailFlow.tlsReports(requireAuth(request).user, request.params.id, request.query),
  );

  app.get('/:id/dmarc-reports', { schema: { params: domainIdParams, response: { 200: receivedReportsAnswer, ...errorResponses(400, 401, 403, 404) } } }, async (request) =>
    mailFlow.receivedReports(requireAuth(request).user, request.params.id),
  );

  app.get('/:id/dmarc-reports/:reportId/source', { schema: { params: receivedReportParams, response: errorResponses(400, 401, 403, 404) } }, async (request, reply) => {
    const file = await mailFlow.reportFile(requireAuth(request).user, request.params.id, request.params.reportId);
    void reply
      .header('content-type', file.contentType)
      .header('content-disposition', `attachment; filename="${file.fileName}"`)
      .header('x-content-type-options', 'nosniff')
      .header('cache-control', 'private, no-store');
    // The file goes out as it is, past the JSON schemas (which type `send` by the error answers only).
    return reply.send(file.body as never);
  });
};
