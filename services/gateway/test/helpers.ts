import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { createLogger } from '@sendwell/server-kit';
import { testRedisUrl, uniquePrefix } from '@sendwell/testing';
import Fastify, { type FastifyInstance } from 'fastify';
import { buildApp } from '../src/app.js';
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

/** The real gateway (real Redis under a prefix of its own), built with `buildApp` and not listening. */
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
  await app.ready();
  // The limiter fails open while Redis connects; tests that count need the connection up.
  if (config.REDIS_URL === testRedisUrl() && deps.redis.status !== 'ready') await once(deps.redis, 'ready');
  return {
    app,
    deps,
    async close() {
      await app.close();
      await deps.close();
    },
  };
}
