import { randomUUID } from 'node:crypto';
import { ErrorCode, type ApiError } from '@sendwell/contracts';
import Fastify, { type FastifyError, type FastifyReply, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import {
  hasZodFastifySchemaValidationErrors,
  isResponseSerializationError,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { AppError, codeForStatus, isPoolExhausted, serviceBusy } from './errors.js';
import type { Logger } from './logger.js';

export interface CreateAppOptions {
  logger: Logger;
  /** Largest accepted body; the gateway and services agree on it. */
  bodyLimit?: number;
  /** Which proxies' X-Forwarded-* headers to believe; services sit behind the gateway (true), the gateway may be the edge. */
  trustProxy?: FastifyServerOptions['trustProxy'];
  /**
   * Check every answer against its zod response schema before sending it (a mismatch is a 500).
   * On in development and tests, where it catches a mapper drifting from the contracts; services
   * turn it off in production, where the mappers' typed DTOs are serialized as they are: parsing a
   * ten-domain list or a scan's checks again costs more CPU than the rest of the request's own work.
   */
  validateResponses?: boolean;
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * A Fastify instance with the shared conventions: request ids from `x-request-id`, zod schemas,
 * explicit timeouts, one error handler answering `ApiError`, and a JSON 404. It never listens.
 */
function fastifyWithZod({ logger, bodyLimit = 1_048_576, trustProxy = true }: CreateAppOptions) {
  return Fastify({
    loggerInstance: logger,
    bodyLimit,
    // Behind the gateway (and any proxy in front of it), the client's address comes from X-Forwarded-For.
    trustProxy,
    connectionTimeout: 30_000,
    keepAliveTimeout: 72_000,
    requestTimeout: 60_000,
    requestIdHeader: false,
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
  }).withTypeProvider<ZodTypeProvider>();
}

export type App = ReturnType<typeof fastifyWithZod>;

export function createApp(options: CreateAppOptions): App {
  const app = fastifyWithZod(options);

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(options.validateResponses === false ? () => (data) => JSON.stringify(data) : serializerCompiler);

  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });

  app.setErrorHandler((error: FastifyError, request, reply) => sendError(error, request, reply));
  app.setNotFoundHandler((request, reply) => {
    const body: ApiError = { code: ErrorCode.NotFound, message: `Route ${request.method} ${request.url.split('?')[0]} not found`, requestId: request.id };
    return reply.status(404).send(body);
  });

  return app;
}

function sendError(thrown: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  let error = thrown;
  // Logged below as a 503 with its code; the cause is the pool, which is load rather than a fault.
  if (isPoolExhausted(error)) error = serviceBusy(error) as unknown as FastifyError;
  let status: number;
  let body: ApiError;
  if (hasZodFastifySchemaValidationErrors(error)) {
    const issues = error.validation.map((v) => ({ path: v.instancePath.replace(/^\//, '').replaceAll('/', '.'), message: v.message ?? 'Invalid input' }));
    status = 400;
    // The first issue's message is the one a form shows; all of them are in details.
    body = { code: ErrorCode.ValidationFailed, message: issues[0]?.message ?? 'Invalid input', details: { issues } };
  } else if (error instanceof AppError) {
    status = error.status;
    body = { code: error.code, message: error.message, ...error.extras };
    if (error.extras.retryAfterSeconds !== undefined) reply.header('retry-after', String(error.extras.retryAfterSeconds));
  } else if (isResponseSerializationError(error as never) || !error.statusCode || error.statusCode >= 500) {
    status = error.statusCode && error.statusCode > 500 ? error.statusCode : 500;
    request.log.error({ err: error }, 'request failed');
    body = { code: codeForStatus(status), message: status === 500 ? 'Internal server error' : 'Service unavailable' };
  } else {
    // Errors Fastify raises for a bad request: malformed JSON, wrong content type, body too large.
    status = error.statusCode;
    body = { code: codeForStatus(status), message: clientMessage(error) };
  }
  if (status >= 500) request.log.warn({ status, code: body.code }, 'answered with server error');
  return reply.status(status).send({ ...body, requestId: request.id });
}

function clientMessage(error: FastifyError): string {
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return 'The request body is not valid JSON';
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return 'The request body is too large';
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return 'Unsupported content type; send JSON';
    default:
      return error.message;
  }
}
