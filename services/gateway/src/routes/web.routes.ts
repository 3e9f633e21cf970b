import { existsSync, readdirSync } from 'node:fs';
import { join, sep } from 'node:path';
import fastifyStatic from '@fastify/static';
import { ErrorCode, type ApiError } from '@sendwell/contracts';
import type { App } from '@sendwell/server-kit';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { pathOf } from '../proxy/route-table.js';

const BUILD_COMMAND = 'pnpm --filter @sendwell/web build';
const STATIC_LABEL = 'static';

/** The build writes `<file>.br` and `<file>.gz` beside each text file (apps/web/vite.config.ts). */
const COMPRESSED_SUFFIX = /\.(br|gz)$/;

/**
 * Vite names every file under assets/ by its content hash, so they never change under one URL.
 * A file that also exists compressed answers differently per Accept-Encoding, which caches must
 * know for every variant, the uncompressed one included (RFC 9110 §12.5.5).
 */
function cacheHeaders(negotiated: ReadonlySet<string>) {
  return (res: { setHeader(name: string, value: string): unknown }, filePath: string): void => {
    const hashed = filePath.includes(`${sep}assets${sep}`);
    res.setHeader('cache-control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
    if (negotiated.has(filePath.replace(COMPRESSED_SUFFIX, ''))) res.setHeader('vary', 'accept-encoding');
  };
}

/** Absolute paths of the build's files that have a precompressed variant beside them. */
function filesWithCompressedVariants(distDir: string): Set<string> {
  const files = readdirSync(distDir, { recursive: true, encoding: 'utf8' }).map((file) => join(distDir, file));
  const present = new Set(files);
  return new Set(files.filter((file) => !COMPRESSED_SUFFIX.test(file) && (present.has(`${file}.br`) || present.has(`${file}.gz`))));
}

/**
 * Pages rendered at build time (apps/web/scripts/prerender-plugin.ts): `prerendered/index.html` is
 * `/`, `prerendered/login.html` is `/login`. Served only at their exact path; every other route gets
 * the empty shell that the app renders into.
 */
const PRERENDERED_DIR = 'prerendered';

function prerenderedPages(distDir: string): Map<string, string> {
  const dir = join(distDir, PRERENDERED_DIR);
  if (!existsSync(dir)) return new Map();
  const pages = readdirSync(dir).filter((file) => file.endsWith('.html'));
  return new Map(pages.map((file) => [file === 'index.html' ? '/' : `/${file.slice(0, -'.html'.length)}`, `${PRERENDERED_DIR}/${file}`]));
}

const isApiPath = (path: string) => path === '/api' || path.startsWith('/api/');
const acceptsHtml = (request: FastifyRequest) => (request.headers.accept ?? '').includes('text/html');

export interface WebOptions {
  distDir: string;
  /** Serve the build's `.map` files; off in production, where they stay unserved (404). */
  sourceMaps: boolean;
}

/**
 * The built web app: its files (precompressed when the client accepts brotli or gzip) with long
 * caching for hashed assets, and `index.html` for any other GET a browser navigates to (client-side
 * routes). Without a build the gateway still starts, and `/` says how to make one.
 */
export async function registerWeb(app: App, { distDir, sourceMaps }: WebOptions): Promise<void> {
  const built = existsSync(join(distDir, 'index.html'));

  await app.register(async (web) => {
    web.addHook('onRoute', (route) => {
      route.config = { ...route.config, metricsLabel: STATIC_LABEL };
    });

    if (!built) {
      app.log.warn({ distDir }, `web app not built: run "${BUILD_COMMAND}" to serve it`);
      const notBuilt = (request: FastifyRequest, reply: FastifyReply) => {
        if (isApiPath(pathOf(request.url))) return reply.callNotFound();
        const message = `The web app has not been built (no index.html in ${distDir}). Run "${BUILD_COMMAND}", then restart the gateway.`;
        reply.code(503).header('cache-control', 'no-store');
        if (acceptsHtml(request)) {
          return reply
            .type('text/html; charset=utf-8')
            .send(`<!doctype html><html><head><meta charset="utf-8"><title>Sendwell</title></head><body><h1>Web app not built</h1><p>${escapeHtml(message)}</p></body></html>`);
        }
        const body: ApiError = { code: ErrorCode.UpstreamUnavailable, message, requestId: request.id };
        return reply.send(body);
      };
      web.get('/', notBuilt);
      web.get('/*', notBuilt);
      return;
    }

    await web.register(fastifyStatic, {
      root: distDir,
      // One route per built file at start; the fallback below owns every other path.
      wildcard: false,
      // Serves `x.js.br` or `x.js.gz` for `x.js` when the client accepts it (brotli first).
      preCompressed: true,
      // The variants are not URLs of their own, and prerendered pages answer at their routes' paths.
      globIgnore: ['**/*.br', '**/*.gz', `${PRERENDERED_DIR}/**`, ...(sourceMaps ? [] : ['**/*.map'])],
      // `/` is a route of the app (below), served prerendered when the build has it.
      index: false,
      cacheControl: false,
      setHeaders: cacheHeaders(filesWithCompressedVariants(distDir)),
    });

    const prerendered = prerenderedPages(distDir);
    const page = (reply: FastifyReply, path: string) => reply.sendFile(prerendered.get(path) ?? 'index.html');
    web.get('/', (_request, reply) => page(reply, '/'));
    web.get('/*', (request, reply) => {
      const path = pathOf(request.url);
      // A missing hashed asset must stay a 404: answering HTML there breaks the page in confusing ways.
      if (isApiPath(path) || path.startsWith('/assets/') || !acceptsHtml(request)) return reply.callNotFound();
      return page(reply, path);
    });
  });
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
