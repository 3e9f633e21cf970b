import { once } from 'node:events';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { createLogger } from '@sendwell/server-kit';
import { testRedisUrl, uniquePrefix } from '@sendwell/testing';
import Fastify, { type FastifyInstance } from 'fastify';
import { buildApp, buildInternalApp } from '../src/app.js';
import { createDeps, type Deps } from '../src/deps.js';
import { loadEnv } from '../src/env.js';

export interface Echo {
  upstream: string;
  method: string;
  url: string;
  path: string;
  query: Record<string, string>;
  headers: Record<string, string | string[] | undefined>;
  /** The body bytes as received, base64, or null without a body. */
  body: string | null;
}

export interface EchoServer {
  name: string;
  url: string;
  app: FastifyInstance;
  close(): Promise<void>;
}

/**
 * A real HTTP service on a random port that answers every request with what it received.
 * `?cookies=1` adds two Set-Cookie headers, `?hang=<ms>` waits before answering, `?stall=<ms>` sends
 * half a body then stalls, `?status=<n>` sets the status.
 */
export async function startEchoServer(name: string): Promise<EchoServer> {
  const app = Fastify({ forceCloseConnections: true, bodyLimit: 50 * 1024 * 1024 });
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
  app.route({
    method: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
    url: '/*',
    handler: async (request, reply) => {
      const query = request.query as Record<string, string>;
      if (query.hang) await new Promise((resolve) => setTimeout(resolve, Number(query.hang)).unref());
      if (query.stall) {
        // Headers and half the declared body, then silence.
        reply.hijack();
        reply.raw.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
        reply.raw.write('{"partial":');
        setTimeout(() => reply.raw.destroy(), Number(query.stall)).unref();
        return;
      }
      if (query.reset) {
        // The connection dropped after the request arrived, with no answer.
        reply.hijack();
        request.raw.socket.destroy();
        return;
      }
      if (query.cookies) {
        reply.header('set-cookie', ['token=abc; Path=/; HttpOnly; SameSite=Lax', 'theme=dark; Path=/']);
      }
      reply.header('x-upstream', name);
      if (query.status) reply.code(Number(query.status));
      const body = request.body as Buffer | undefined;
      const echo: Echo = {
        upstream: name,
        method: request.method,
        url: request.url,
        path: request.url.split('?')[0]!,
        query,
        headers: request.headers,
        body: body ? body.toString('base64') : null,
      };
      return echo;
    },
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as AddressInfo;
  return { name, url: `http://127.0.0.1:${port}`, app, close: () => app.close() };
}

/** A port on loopback that nothing listens on (bound, then released). */
export async function closedPortUrl(): Promise<string> {
  const app = Fastify();
  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as AddressInfo;
  await app.close();
  return `http://127.0.0.1:${port}`;
}

export type Gateway = Awaited<ReturnType<typeof startGateway>>;

/**
 * The real gateway (real Redis under a prefix of its own), built with `buildApp` and not listening;
 * `internal` is its internal listener's app (`/metrics`, `/health/ready`).
 */
export async function startGateway(env: Record<string, string> = {}) {
  const config = loadEnv({
    REDIS_URL: testRedisUrl(),
    RATE_LIMIT_PREFIX: uniquePrefix('gw-rl'),
    LOG_LEVEL: 'silent',
    WEB_DIST_DIR: '/nonexistent/sendwell-web-dist',
    ...env,
  });
  const deps: Deps = createDeps(config, createLogger('gateway', config.LOG_LEVEL));
  const app = await buildApp(deps);
  const internal = buildInternalApp(deps);
  await Promise.all([app.ready(), internal.ready()]);
  // The limiter fails open while Redis connects; tests that count need the connection up.
  if (config.REDIS_URL === testRedisUrl() && deps.redis.status !== 'ready') await once(deps.redis, 'ready');
  return {
    app,
    internal,
    deps,
    async close() {
      await Promise.all([app.close(), internal.close()]);
      await deps.close();
    },
  };
}

export interface RawAnswer {
  status: number;
  /** The status line and headers, lower-cased names as sent. */
  head: string;
  /** The body, de-chunked. */
  body: string;
}

/** A socket to a listening app's origin. */
export function rawSocket(origin: string): Socket {
  const { hostname, port } = new URL(origin);
  return connect({ host: hostname, port: Number(port) });
}

/** Everything the server sends until it closes the connection, read as one answer (after any `100 Continue`). */
export async function readAnswer(socket: Socket): Promise<RawAnswer> {
  const chunks: Buffer[] = [];
  for await (const chunk of socket) chunks.push(chunk as Buffer);
  let received = Buffer.concat(chunks);
  const interim = Buffer.from('HTTP/1.1 100 Continue\r\n\r\n');
  if (received.subarray(0, interim.length).equals(interim)) received = received.subarray(interim.length);
  const split = received.indexOf('\r\n\r\n');
  const head = received.subarray(0, split).toString('latin1');
  let body = received.subarray(split + 4).toString();
  if (/^transfer-encoding: chunked$/im.test(head)) body = body.replace(/(?:^|\r\n)[0-9a-f]+\r\n/gi, '').replace(/\r\n$/, '');
  return { status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]), head, body };
}

/**
 * Bytes written exactly as given (odd framing, duplicated headers, any request target), then the
 * answer read until the server closes: the request should say `connection: close`. Not end(): a
 * half-closed socket may be dropped before the answer.
 */
export async function rawExchange(origin: string, bytes: string | Buffer): Promise<RawAnswer> {
  const socket = rawSocket(origin);
  socket.write(bytes);
  return readAnswer(socket);
}

/**
 * One request over a plain socket, with the request target exactly as given: `app.inject()` and
 * fetch parse the URL first, resolving `%2e%2e` and dropping `#…` before the gateway could see them.
 */
export async function rawRequest(origin: string, method: string, target: string, headers: Record<string, string> = {}): Promise<RawAnswer> {
  const { host } = new URL(origin);
  const head = Object.entries({ host, 'content-length': '0', connection: 'close', ...headers })
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  return rawExchange(origin, `${method} ${target} HTTP/1.1\r\n${head}\r\n`);
}

/** The value of the sample `name{...}` carrying all these labels (in whatever order prom-client writes them). */
export function sample(text: string, name: string, labels: Record<string, string>): number | undefined {
  const wanted = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`)) continue;
    const inner = line.slice(name.length + 1, line.lastIndexOf('}'));
    const pairs = inner.split(/,(?=[a-z_]+=")/);
    if (wanted.every((w) => pairs.includes(w))) return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return undefined;
}
