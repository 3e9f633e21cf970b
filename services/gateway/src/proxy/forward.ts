import type { IncomingHttpHeaders } from 'node:http';
import { PassThrough, type Readable } from 'node:stream';
import { ErrorCode, type ApiError } from '@sendwell/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Dispatcher } from 'undici';
import type { Upstream } from './upstreams.js';

/** RFC 9110 §7.6.1: connection-specific headers, never forwarded in either direction. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'te', 'trailer', 'upgrade']);
/** Request headers the gateway sets itself, so a client's values never reach a service. */
const REPLACED_ON_REQUEST = new Set(['host', 'x-forwarded-for', 'x-forwarded-proto', 'x-forwarded-host', 'forwarded', 'x-request-id']);

/** Answers with a declared length up to this are buffered; larger or chunked ones are streamed. */
const BUFFER_LIMIT = 64 * 1024;

const TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'ETIMEDOUT']);

export type UpstreamFailure = 'timeout' | 'unavailable';

export interface ForwardHooks {
  onUpstreamFailure(upstream: Upstream, kind: UpstreamFailure): void;
}

function upstreamRequestHeaders(request: FastifyRequest): IncomingHttpHeaders {
  const headers: IncomingHttpHeaders = {};
  for (const [name, value] of Object.entries(request.headers)) {
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
 * undici destroys a request body it could not send; were that the client's socket, the client
 * would get a reset instead of the 502 below. A pipe (unlike `pipeline`) leaves the source alone
 * when the destination dies, while a client abort still reaches the service.
 */
function detached(body: Readable): Readable {
  const copy = new PassThrough();
  body.on('error', (err) => copy.destroy(err));
  copy.on('close', () => {
    // Unsent rest of the body: drain it, or the client would wait forever to finish its upload.
    if (!body.readableEnded) {
      body.unpipe(copy);
      body.resume();
    }
  });
  return body.pipe(copy);
}

function copyResponseHeaders(reply: FastifyReply, headers: IncomingHttpHeaders): void {
  for (const [name, value] of Object.entries(headers)) {
    // The gateway's own request id is already on the answer.
    if (value === undefined || HOP_BY_HOP.has(name) || name === 'x-request-id') continue;
    reply.header(name, value);
  }
}

/**
 * Streams the request to the service through its keep-alive pool and streams the answer back:
 * status, every header (several Set-Cookie included) and the body, byte for byte. The request body
 * is never parsed, which is what lets the Stripe webhook signature verify behind the gateway.
 */
export async function forward(request: FastifyRequest, reply: FastifyReply, upstream: Upstream, hooks: ForwardHooks): Promise<FastifyReply> {
  const body = request.body ? detached(request.body as Readable) : null;
  let response: Dispatcher.ResponseData;
  try {
    response = await upstream.pool.request({
      method: request.method as Dispatcher.HttpMethod,
      path: request.url,
      headers: upstreamRequestHeaders(request),
      body,
    });
  } catch (err) {
    body?.destroy();
    return answerFailure(request, reply, upstream, err, hooks);
  }
  if (response.statusCode === 204 || response.statusCode === 304 || request.method === 'HEAD') {
    await response.body.dump();
    return sendUpstreamAnswer(reply, response);
  }
  const length = Number(response.headers['content-length'] ?? Number.NaN);
  if (length <= BUFFER_LIMIT) {
    // Small answers (most JSON) are read whole and sent as one buffer: cheaper than stream plumbing.
    // Read before any header is copied, so a service stalling mid-body still gets a clean 504.
    let payload: Buffer;
    try {
      payload = Buffer.from(await response.body.arrayBuffer());
    } catch (err) {
      return answerFailure(request, reply, upstream, err, hooks);
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

function answerFailure(request: FastifyRequest, reply: FastifyReply, upstream: Upstream, err: unknown, hooks: ForwardHooks): FastifyReply {
  if (reply.raw.destroyed) {
    // The client went away (often mid-upload); nobody is left to answer.
    request.log.info({ err, upstream: upstream.name }, 'client closed the request before the service answered');
    return reply;
  }
  const code = (err as { code?: string } | null)?.code ?? '';
  const kind: UpstreamFailure = TIMEOUT_CODES.has(code) ? 'timeout' : 'unavailable';
  hooks.onUpstreamFailure(upstream, kind);
  request.log.warn({ err, upstream: upstream.name, kind }, 'upstream request failed');
  const body: ApiError = {
    code: ErrorCode.UpstreamUnavailable,
    message: `The ${upstream.name} service is unavailable. Please try again shortly.`,
    requestId: request.id,
  };
  // 502 when the service cannot be reached or breaks the connection, 504 when it is too slow.
  return reply.code(kind === 'timeout' ? 504 : 502).send(body);
}
