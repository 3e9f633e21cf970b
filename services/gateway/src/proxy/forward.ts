import type { IncomingHttpHeaders } from 'node:http';
import { Transform, type Readable } from 'node:stream';
import { ErrorCode, type ApiError } from '@sendwell/contracts';
import { badRequest, payloadTooLarge } from '@sendwell/server-kit';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Dispatcher } from 'undici';
import type { Upstream } from './upstreams.js';

/**
 * RFC 9110 §7.6.1: connection-specific headers, never forwarded in either direction. `Expect` too:
 * Node answers `100-continue` to the client itself, and undici refuses to send the header.
 */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'te', 'trailer', 'upgrade', 'expect']);
/** Request headers the gateway sets itself, so a client's values never reach a service. */
const REPLACED_ON_REQUEST = new Set(['host', 'x-forwarded-for', 'x-forwarded-proto', 'x-forwarded-host', 'forwarded', 'x-request-id']);

/** Answers with a declared length up to this are buffered; larger or chunked ones are streamed. */
const BUFFER_LIMIT = 64 * 1024;

const TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'ETIMEDOUT']);
/** undici refusing what it was given to send: a header the gateway passed on from the client, not a fault of the service. */
const REFUSED_INPUT_CODES = new Set(['UND_ERR_INVALID_ARG', 'UND_ERR_NOT_SUPPORTED']);

export type UpstreamFailure = 'timeout' | 'unavailable';

export interface ForwardOptions {
  /** Largest request body forwarded, in bytes; the services refuse larger ones too. */
  bodyLimit: number;
  /** Longest silence between two chunks of the answer; the pool's (the upstream timeout) when not given. */
  bodyTimeoutMs?: number;
  /** Called for real trouble with the service only, never for what the client did. */
  onUpstreamFailure(upstream: Upstream, kind: UpstreamFailure): void;
}

/** The client's body grew past the limit while it was being forwarded. */
class BodyTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`request body over ${limit} bytes`);
  }
}

/** The client's body failed while it was being forwarded: the client aborted, or its connection timed out. */
class ClientBodyError extends Error {
  constructor(cause: unknown) {
    super('the client stopped sending its body', { cause });
  }
}

const tooLarge = (limit: number) => payloadTooLarge(`The request body is too large: the limit is ${limit} bytes.`);

function upstreamRequestHeaders(request: FastifyRequest): IncomingHttpHeaders {
  const headers: IncomingHttpHeaders = {};
  const given = request.headers;
  for (const name in given) {
    const value = given[name];
    if (value !== undefined && !HOP_BY_HOP.has(name) && !REPLACED_ON_REQUEST.has(name)) headers[name] = value;
  }
  // The chain as far as the gateway trusts it (client first); with no trusted proxy, just the peer.
  // Services trust this header, so an untrusted client-supplied chain must not pass through.
  const chain = request.ips ? [...request.ips].reverse() : [request.ip];
  headers['x-forwarded-for'] = chain.join(', ');
  headers['x-forwarded-proto'] = request.protocol;
  headers['x-forwarded-host'] = request.host;
  headers['x-request-id'] = request.id;
  return headers;
}

/**
 * The body the service gets: a copy that fails with BodyTooLargeError past `limit` bytes (chunked
 * bodies declare no length) and with ClientBodyError when the client's stream fails, so a failed
 * request says whose fault it was. undici destroys a request body it could not send; were that the
 * client's socket, the client would get a reset instead of an answer. A pipe (unlike `pipeline`)
 * leaves the source alone when the destination dies, while a client abort still reaches the service.
 */
function forwardedBody(body: Readable, limit: number): Readable {
  let received = 0;
  const copy = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      received += chunk.length;
      if (received > limit) done(new BodyTooLargeError(limit));
      else done(null, chunk);
    },
  });
  body.on('error', (err) => copy.destroy(new ClientBodyError(err)));
  copy.on('close', () => {
    // Unsent rest of the body: drain it, or the client would wait forever to finish its upload
    // (and an answer would reach it as a reset) while the service's answer goes back. After a 413
    // the connection closes once the answer is flushed (closeAfterRefusedBody), which ends this
    // drain; otherwise Node's request timeout ends one that never stops.
    if (!body.readableEnded) {
      body.unpipe(copy);
      body.resume();
    }
  });
  return body.pipe(copy);
}

function copyResponseHeaders(reply: FastifyReply, headers: IncomingHttpHeaders): void {
  for (const name in headers) {
    const value = headers[name];
    // The gateway's own request id is already on the answer.
    if (value === undefined || HOP_BY_HOP.has(name) || name === 'x-request-id') continue;
    reply.header(name, value);
  }
}

/**
 * Streams the request to `path` (normalised, with the query) on the service through its keep-alive
 * pool and streams the answer back: status, every header (several Set-Cookie included) and the
 * body, byte for byte. The request body is never parsed, which is what lets the Stripe webhook
 * signature verify behind the gateway.
 */
export async function forward(request: FastifyRequest, reply: FastifyReply, upstream: Upstream, path: string, options: ForwardOptions): Promise<FastifyReply> {
  // Refused before the service sees a byte: a service answering 413 closes the connection, and
  // the gateway, still sending, would get EPIPE instead of that answer.
  if (Number(request.headers['content-length']) > options.bodyLimit) throw tooLarge(options.bodyLimit);
  const body = request.body ? forwardedBody(request.body as Readable, options.bodyLimit) : null;
  let response: Dispatcher.ResponseData;
  try {
    response = await upstream.pool.request({
      method: request.method as Dispatcher.HttpMethod,
      path,
      headers: upstreamRequestHeaders(request),
      body,
      ...(options.bodyTimeoutMs === undefined ? {} : { bodyTimeout: options.bodyTimeoutMs }),
    });
  } catch (err) {
    body?.destroy();
    return answerFailure(request, reply, upstream, err, options);
  }
  if (response.statusCode === 204 || response.statusCode === 304 || request.method === 'HEAD') {
    await response.body.dump();
    return sendUpstreamAnswer(reply, response);
  }
  // An event stream declares no length, so it is streamed below, each chunk as it comes.
  const length = Number(response.headers['content-length'] ?? Number.NaN);
  if (length <= BUFFER_LIMIT) {
    // Small answers (most JSON) are read whole and sent as one buffer: cheaper than stream plumbing.
    // Read before any header is copied, so a service stalling mid-body still gets a clean 504.
    let payload: Buffer;
    try {
      payload = Buffer.from(await response.body.arrayBuffer());
    } catch (err) {
      return answerFailure(request, reply, upstream, err, options);
    }
    return sendUpstreamAnswer(reply, response, payload);
  }
  const stream = response.body;
  reply.raw.once('close', () => {
    // A client leaving mid-download is routine: undici would report it as an abort error, which
    // Fastify logs as a warning; with this code Fastify logs "stream closed prematurely" at info.
    if (!stream.readableEnded && !stream.destroyed) {
      stream.destroy(Object.assign(new Error('client closed the connection during the answer'), { code: 'ERR_STREAM_PREMATURE_CLOSE' }));
    }
  });
  return sendUpstreamAnswer(reply, response, stream);
}

function sendUpstreamAnswer(reply: FastifyReply, response: Dispatcher.ResponseData, payload?: Buffer | Readable): FastifyReply {
  reply.code(response.statusCode);
  copyResponseHeaders(reply, response.headers);
  return reply.send(payload);
}

/** The supervisor restarts a crashed service within about a second (scripts/lib/restart-policy.ts). */
const RETRY_REFUSED_AFTER_SECONDS = '1';

function answerFailure(request: FastifyRequest, reply: FastifyReply, upstream: Upstream, err: unknown, options: ForwardOptions): FastifyReply {
  // The client's doing first: none of these is trouble with the service.
  if (err instanceof BodyTooLargeError) throw tooLarge(err.limit);
  if (err instanceof ClientBodyError) {
    request.log.info({ err: err.cause, upstream: upstream.name }, 'client stopped sending its body before the service answered');
    return reply;
  }
  const code = (err as { code?: string } | null)?.code ?? '';
  if (REFUSED_INPUT_CODES.has(code)) {
    request.log.warn({ err, upstream: upstream.name }, 'undici refused to send the request as the client gave it');
    throw badRequest('The request cannot be forwarded as sent.');
  }
  const kind: UpstreamFailure = TIMEOUT_CODES.has(code) ? 'timeout' : 'unavailable';
  options.onUpstreamFailure(upstream, kind);
  if (reply.raw.destroyed) {
    // The client went away while the service was failing; nobody is left to answer.
    request.log.info({ err, upstream: upstream.name, kind }, 'upstream request failed after the client left');
    return reply;
  }
  request.log.warn({ err, upstream: upstream.name, kind }, 'upstream request failed');
  const body: ApiError = {
    code: ErrorCode.UpstreamUnavailable,
    message: `The ${upstream.name} service is unavailable. Please try again shortly.`,
    requestId: request.id,
  };
  // Refused: the service is not listening (restarting, say) and never saw the request, so any method
  // may be sent again: 503 with Retry-After. A broken connection may have reached it: 502. Too slow: 504.
  if (code === 'ECONNREFUSED') return reply.code(503).header('retry-after', RETRY_REFUSED_AFTER_SECONDS).send(body);
  return reply.code(kind === 'timeout' ? 504 : 502).send(body);
}
