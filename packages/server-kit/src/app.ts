import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { ErrorCode, type ApiError } from '@sendwell/contracts';
import Fastify, { type FastifyError, type FastifyReply, type FastifyRequest } from 'fastify';
import {
  hasZodFastifySchemaValidationErrors,
  isResponseSerializationError,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { AppError, codeForStatus, isDatabaseUnavailable, serviceBusy } from './errors.js';
import { LOOPBACK_PROXIES } from './env.js';
import type { Logger } from './logger.js';
import { CompletedRequestLog } from './request-log.js';

export interface CreateAppOptions {
  logger: Logger;
  /** Largest accepted body; the gateway and services agree on it. */
  bodyLimit?: number;
  /**
   * The peers whose X-Forwarded-For/-Proto/-Host are believed (the env's TRUSTED_PROXIES): the gateway's
   * addresses for a service, the load balancer's for the gateway. Default: loopback only.
   */
  trustedProxies?: readonly string[];
  /**
   * Check every answer against its zod response schema before sending it (a mismatch is a 500).
   * On in development and tests, where it catches a mapper drifting from the contracts; services
   * turn it off in production, where the mappers' typed DTOs are serialized as they are: parsing a
   * ten-domain list or a scan's checks again costs more CPU than the rest of the request's own work.
   */
  validateResponses?: boolean;
}

const REQUEST_ID = /^[\w.:-]{1,128}$/;

/**
 * The request as Fastify logs it, minus the query string: links carry secrets there
 * (`verify-email?token=…`, `reset-password?token=…`), and logs are read by more people than mail is.
 */
function requestForLog(request: FastifyRequest) {
  return {
    method: request.method,
    url: request.url.split('?')[0],
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

/**
 * A Fastify instance with the shared conventions: request ids from `x-request-id`, zod schemas,
 * explicit timeouts, one error handler answering `ApiError`, and a JSON 404. It never listens.
 */
function fastifyWithZod({ logger, bodyLimit = 1_048_576, trustedProxies = LOOPBACK_PROXIES }: CreateAppOptions) {
  return Fastify({
    // One line per completed request, in every service (request-log.ts).
    logController: new CompletedRequestLog(),
    // A child whose serializer replaces Fastify's own `req` one (the instance's serializers win).
    loggerInstance: logger.child({}, { serializers: { req: requestForLog } }),
    bodyLimit,
    // request.ip, .protocol and .host come from X-Forwarded-* only when the peer is a trusted proxy;
    // X-Forwarded-For is read from the right, up to the first address that is not one.
    trustProxy: trustedProxies.length > 0 ? [...trustedProxies] : false,
    connectionTimeout: 30_000,
    keepAliveTimeout: 72_000,
    requestTimeout: 60_000,
    requestIdHeader: false,
    // A URL the router cannot decode (`/api/%zz`) gets the same ApiError 400 as any other bad request.
    frameworkErrors: (error, request, reply) => sendError(error, request, reply),
    // So does a request Node's parser refuses before any route sees it (bad framing, huge headers).
    clientErrorHandler: answerClientError,
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
  }).withTypeProvider<ZodTypeProvider>();
}

export type App = ReturnType<typeof fastifyWithZod>;

const CLIENT_ERROR_ANSWERS: Record<string, { status: number; message: string }> = {
  HPE_HEADER_OVERFLOW: { status: 431, message: 'The request headers are too large' },
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, message: 'The request took too long to arrive' },
};
const UNREADABLE_REQUEST = { status: 400, message: 'The request could not be read' };

/**
 * Fastify's default answer to a request Node's HTTP parser refuses is its own `{error, statusCode}`
 * body; this gives it the ApiError shape every other answer has. A socket already gone gets nothing.
 */
function answerClientError(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const { status, message } = CLIENT_ERROR_ANSWERS[error.code ?? ''] ?? UNREADABLE_REQUEST;
  // An answer to HEAD has no body: a client would read one as the start of a next answer.
  // Node's parser error carries the bytes it read as a Buffer (Fastify's types say otherwise).
  const raw: unknown = (error as { rawPacket?: unknown }).rawPacket;
  const head = Buffer.isBuffer(raw) && raw.subarray(0, 5).toString('latin1') === 'HEAD ';
  const body = head ? '' : JSON.stringify({ code: codeForStatus(status), message, requestId: randomUUID() } satisfies ApiError);
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

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

/**
 * SQLSTATEs of class 22 (data exception) that a client's value causes: text Postgres cannot store
 * (NUL, a bad byte sequence), a number out of its column's range, text that is not a number, uuid or
 * date, a string longer than its column. Schemas should refuse these values first; this is the last line.
 */
const CLIENT_DATA_SQLSTATES = new Set(['22001', '22003', '22007', '22008', '22021', '22P02', '22P05']);
const INVALID_VALUE_MESSAGE = 'A value in the request is out of range or not valid';

/** A query error from Postgres (pg's DatabaseError carries `severity` and the SQLSTATE in `code`) caused by a value. */
function clientDataSqlState(error: unknown): string | undefined {
  if (!(error instanceof Error) || !('severity' in error) || !('code' in error) || typeof error.code !== 'string') return undefined;
  return CLIENT_DATA_SQLSTATES.has(error.code) ? error.code : undefined;
}

function sendError(thrown: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  let error = thrown;
  // Logged below as a 503 with its code: an exhausted pool or a dropped connection is load or an
  // operator's restart rather than a fault, and the request can simply be tried again.
  if (isDatabaseUnavailable(error)) error = serviceBusy(error) as unknown as FastifyError;
  const sqlstate = clientDataSqlState(error);
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
  } else if (sqlstate) {
    status = 400;
    // The SQLSTATE only: Postgres' own message quotes the value, which may be personal or a secret.
    request.log.warn({ sqlstate }, 'value refused by Postgres');
    body = { code: ErrorCode.ValidationFailed, message: INVALID_VALUE_MESSAGE };
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
