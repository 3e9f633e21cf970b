import type { Logger } from './logger.js';
import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';

/** Per logger: its child that redacts nothing, for lines whose every field a serializer chose. */
const unredacted = new WeakMap<object, Logger>();

function unredactedChild(log: Logger): Logger {
  let child = unredacted.get(log);
  if (!child) {
    child = log.child({}, { redact: [] });
    unredacted.set(log, child);
  }
  return child;
}

/**
 * One log line per request, written when it completes, with the request, the status and the time
 * taken, instead of Fastify's two ("incoming request", then "request completed" without the
 * request); a request still in flight shows in the metrics. The line skips pino's redaction, which
 * costs more than writing it (each wildcard path walks every field): its fields are the kit's `req`
 * serializer (no headers, no query string), the status and the time, so there is nothing to redact.
 * Failed requests keep the redacting logger, since an error may carry anything.
 */
export class CompletedRequestLog extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (this.isLogDisabled(request)) return;
    if (error) {
      reply.log.error({ req: request, res: reply, err: error, responseTime: reply.elapsedTime }, 'request errored');
      return;
    }
    // reply.log carries the route's level (/health logs at warn) and the request id.
    if (!(reply.log as Logger).isLevelEnabled('info')) return;
    unredactedChild(request.server.log as Logger).info({ reqId: request.id, req: request, res: reply, responseTime: reply.elapsedTime }, 'request completed');
  }
}
