import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { ErrorCode, type ApiError } from '@sendwell/contracts';
import type { App } from '@sendwell/server-kit';

/**
 * What Node's HTTP server decides on its own before Fastify sees a request: `Expect` and
 * `CONNECT`. Left to Node, both get an answer without the ApiError body (or no answer at all).
 */

/** Node's own test for a continue expectation (`_http_server.js`), so both agree on what is one. */
const CONTINUE = /(?:^|\W)100-continue(?:$|\W)/i;

/**
 * `Expect` (RFC 9110 §10.1.1). `100-continue` is answered by Node's server itself before the
 * request reaches a handler (no `checkContinue` listener is registered, on purpose), and the proxy
 * never forwards the header. Any other expectation is one the gateway cannot meet: 417 as an
 * `ApiError`. Without a `checkExpectation` listener Node would answer that 417 itself, with an empty
 * body and no request id; the listener hands the request to Fastify instead.
 */
export function refuseUnknownExpectations(app: App): void {
  app.server.on('checkExpectation', (req, res) => app.server.emit('request', req, res));
  // A callback hook, not an async one: it runs on every request, and a promise per request costs more than the check.
  app.addHook('onRequest', (request, _reply, done) => {
    const expect = request.headers.expect;
    if (expect === undefined || CONTINUE.test(expect)) return done();
    // A plain status error: the kit's error handler answers it as an ApiError with that status.
    done(Object.assign(new Error('The expectation in the "Expect" header is not supported; only "100-continue" is.'), { statusCode: 417 }));
  });
}

/**
 * `CONNECT` (a tunnel) never reaches Fastify: Node emits `connect`, and without a listener drops
 * the connection without a word. The gateway tunnels nothing: 405, then close. The socket is ours
 * from here, Node's error listener included, so an error on it must be caught or it would crash
 * the process.
 */
export function refuseTunnels(app: App): void {
  app.server.on('connect', (_request: IncomingMessage, socket: Duplex) => {
    socket.on('error', () => socket.destroy());
    const body: ApiError = { code: ErrorCode.ValidationFailed, message: 'CONNECT is not supported.' };
    const json = JSON.stringify(body);
    socket.end(
      'HTTP/1.1 405 Method Not Allowed\r\nallow: GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS\r\nconnection: close\r\n' +
        `content-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(json)}\r\n\r\n${json}`,
    );
  });
}

/**
 * A 413 ends the connection: `Connection: close` on the answer, so Node's server closes the socket
 * once the answer is flushed instead of reading (and discarding) the rest of a body it refused to
 * keep the connection alive: a declared 4 GiB body was otherwise drained at about 500 MB/s.
 */
export function closeAfterRefusedBody(app: App): void {
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (reply.statusCode === 413) reply.header('connection', 'close');
    done(null, payload);
  });
}
