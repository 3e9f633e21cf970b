import type { PassThrough } from 'node:stream';
import { apiRouteOptions } from '@sendwell/contracts';
import { AppError, requireAuth, serviceBusy } from '@sendwell/server-kit';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Deps } from '../deps.js';
import { openMailTestEventStream } from './mail-test-event-stream.js';
import { MailTestService } from './mail-test.service.js';

/** Inbox Testing's calls (issue 26). Register with the `/api/mail-tests` prefix. */
export const mailTestsRoutes: FastifyPluginAsyncZod<{ deps: Deps }> = async (app, { deps }) => {
  const mailTests = new MailTestService(deps.mailTests, deps.env.INTAKE_DOMAIN);
  app.addHook('onRequest', app.authenticate);

  app.route({
    ...apiRouteOptions(app.prefix, 'POST /api/mail-tests'),
    // '/' rather than the prefix itself: /api/mail-tests/ is served too, as before.
    url: '/',
    handler: async (request, reply) => reply.code(201).send(await mailTests.create(requireAuth(request).user)),
  });

  app.route({
    ...apiRouteOptions(app.prefix, 'GET /api/mail-tests'),
    // '/' rather than the prefix itself: /api/mail-tests/ is served too, as before.
    url: '/',
    handler: async (request) => mailTests.list(requireAuth(request).user),
  });

  app.route({
    ...apiRouteOptions(app.prefix, 'GET /api/mail-tests/:id'),
    handler: async (request) => mailTests.get(requireAuth(request).user, request.params.id),
  });

  // Open streams end (cleanly, so browsers reconnect elsewhere) when the server closes; it would wait for them otherwise.
  const open = new Set<PassThrough>();
  app.addHook('preClose', async () => {
    for (const stream of open) stream.end();
  });

  app.route({
    ...apiRouteOptions(app.prefix, 'GET /api/mail-tests/:id/events'),
    handler: async (request, reply) => {
      const { user } = requireAuth(request);
      const { id } = request.params;
      // Plan and ownership answered as JSON errors before the stream starts.
      await mailTests.get(user, id);
      const stream = await openMailTestEventStream({ testId: id, load: () => mailTests.get(user, id), relay: deps.mailTestEvents, log: request.log }).catch((err: unknown) => {
        // The subscription needs Redis: without it the stream could never say what changed.
        throw err instanceof AppError ? err : serviceBusy(err);
      });
      open.add(stream);
      stream.once('close', () => open.delete(stream));
      void reply.header('content-type', 'text/event-stream; charset=utf-8').header('cache-control', 'no-cache').header('x-accel-buffering', 'no');
      // A stream goes out as it is, past the JSON schemas (which type `send` by the error answers only).
      return reply.send(stream as never);
    },
  });
};
