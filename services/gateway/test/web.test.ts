import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type Gateway } from './helpers.js';

const INDEX = '<!doctype html><html><head><script type="module" src="/assets/index-abc123.js"></script></head><body><div id="root"></div></body></html>';
const ASSET = 'console.log("app");';
const SOURCE_MAP = '{"version":3,"sources":["../src/main.tsx"],"mappings":"AAAA"}';
const PRODUCTION = { NODE_ENV: 'production', JWT_SECRET: 'a-production-secret-of-at-least-32-characters', TRUSTED_PROXIES: 'none' };
/** Big enough to be worth compressing, as the build's chunks are. */
const CHUNK = `export const rules = ${JSON.stringify(Array.from({ length: 200 }, (_, i) => ({ id: i, rule: 'SPF_TOO_MANY_LOOKUPS' })))};`;

let dist: string;
let gateway: Gateway;

/** What the build writes for a text file (vite-plugin-compression2, the prerender plugin): it, with .br and .gz beside it. */
async function writeWithCompressedCopies(dir: string, file: string, text: string): Promise<void> {
  await writeFile(join(dir, file), text);
  await writeFile(join(dir, `${file}.br`), brotliCompressSync(text));
  await writeFile(join(dir, `${file}.gz`), gzipSync(text));
}

beforeAll(async () => {
  dist = await mkdtemp(join(tmpdir(), 'sendwell-web-'));
  await mkdir(join(dist, 'assets'));
  await writeFile(join(dist, 'index.html'), INDEX);
  await writeFile(join(dist, 'assets', 'index-abc123.js'), ASSET);
  await writeFile(join(dist, 'assets', 'index-abc123.js.map'), SOURCE_MAP);
  await writeFile(join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  for (const [file, text] of [['index.html', INDEX], ['assets/chunk-def456.js', CHUNK]] as const) await writeWithCompressedCopies(dist, file, text);
  gateway = await startGateway({ WEB_DIST_DIR: dist });
});

afterAll(async () => {
  await gateway?.close();
  await rm(dist, { recursive: true, force: true });
});

const html = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };

describe('the built web app', () => {
  it('serves index.html at / without caching', async () => {
    const res = await gateway.app.inject({ method: 'GET', url: '/', headers: html });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.body).toBe(INDEX);
  });

  it('serves hashed assets with a long immutable cache', async () => {
    const res = await gateway.app.inject({ method: 'GET', url: '/assets/index-abc123.js' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/javascript/);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.body).toBe(ASSET);
  });

  it('serves other files, revalidated', async () => {
    const res = await gateway.app.inject({ method: 'GET', url: '/favicon.svg' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-cache');
  });

  it('does not offer the compressed variants as URLs of their own', async () => {
    for (const url of ['/assets/chunk-def456.js.br', '/assets/chunk-def456.js.gz', '/index.html.br']) {
      expect((await gateway.app.inject({ method: 'GET', url })).statusCode).toBe(404);
    }
  });

  it.each(['/dashboard', '/domains/example.com/history', '/settings?tab=billing'])('falls back to index.html for the client route %s', async (url) => {
    const res = await gateway.app.inject({ method: 'GET', url, headers: html });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.body).toBe(INDEX);
  });

  it('answers 404 JSON for a missing asset, a non-HTML request and unknown /api paths', async () => {
    for (const [url, headers] of [['/assets/missing-000.js', html], ['/dashboard', { accept: 'application/json' }], ['/api/unknown', html]] as const) {
      const res = await gateway.app.inject({ method: 'GET', url, headers });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ code: 'NOT_FOUND' });
    }
  });

  it('labels its requests "static" in the metrics', async () => {
    await gateway.app.inject({ method: 'GET', url: '/assets/index-abc123.js' });
    const text = (await gateway.internal.inject({ method: 'GET', url: '/metrics' })).body;
    expect(text).toMatch(/gateway_http_requests_total\{[^}]*route="static",method="GET",status="200"[^}]*\} \d+/);
    expect(text).not.toContain('abc123');
  });
});

describe('precompressed files', () => {
  const decode: Record<string, (body: Buffer) => Buffer> = { br: brotliDecompressSync, gzip: gunzipSync, identity: (body) => body };

  it.each([
    ['br, gzip, deflate', 'br'],
    ['gzip, deflate, br, zstd', 'br'],
    ['gzip', 'gzip'],
    ['gzip;q=1, br;q=0.5', 'gzip'],
    ['br;q=0, gzip', 'gzip'],
    ['deflate', 'identity'],
    ['identity', 'identity'],
    [undefined, 'identity'],
  ])('serves a hashed chunk to Accept-Encoding %s as %s, cached for a year, varying on the encoding', async (acceptEncoding, encoding) => {
    const res = await gateway.app.inject({
      method: 'GET',
      url: '/assets/chunk-def456.js',
      headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe(encoding === 'identity' ? undefined : encoding);
    expect(res.headers['content-type']).toMatch(/^text\/javascript|^application\/javascript/);
    expect(res.headers['vary']).toBe('accept-encoding');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(Number(res.headers['content-length'])).toBe(res.rawPayload.length);
    expect(decode[encoding]!(res.rawPayload).toString()).toBe(CHUNK);
    if (encoding !== 'identity') expect(res.rawPayload.length).toBeLessThan(CHUNK.length / 4);
  });

  it.each(['/', '/login', '/dashboard'])('serves index.html at %s compressed, never cached without revalidation', async (url) => {
    for (const [acceptEncoding, encoding] of [['gzip, deflate, br', 'br'], ['gzip', 'gzip'], ['', 'identity']] as const) {
      const res = await gateway.app.inject({ method: 'GET', url, headers: { ...html, 'accept-encoding': acceptEncoding } });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.headers['content-encoding']).toBe(encoding === 'identity' ? undefined : encoding);
      expect(res.headers['vary']).toBe('accept-encoding');
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.headers['content-security-policy']).toContain("script-src 'self'");
      expect(decode[encoding]!(res.rawPayload).toString()).toBe(INDEX);
    }
  });

  it('serves a file the build did not compress as it is, without Vary', async () => {
    const res = await gateway.app.inject({ method: 'GET', url: '/assets/index-abc123.js', headers: { 'accept-encoding': 'br, gzip' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers['vary']).toBeUndefined();
    expect(res.body).toBe(ASSET);
  });

  it('answers a conditional request for a compressed variant with 304', async () => {
    const headers = { 'accept-encoding': 'br' };
    const first = await gateway.app.inject({ method: 'GET', url: '/assets/chunk-def456.js', headers });
    const again = await gateway.app.inject({ method: 'GET', url: '/assets/chunk-def456.js', headers: { ...headers, 'if-none-match': String(first.headers.etag) } });
    expect(again.statusCode).toBe(304);
  });
});

describe('prerendered pages', () => {
  const LANDING = INDEX.replace('<div id="root"></div>', '<div id="root"><h1>Make sure your email lands in the inbox</h1></div>');
  const LOGIN = INDEX.replace('<div id="root"></div>', '<div id="root"><h1>Welcome back</h1></div>');
  let prerenderedDist: string;
  let withPages: Gateway;

  beforeAll(async () => {
    // What apps/web/scripts/prerender-plugin.ts writes beside the build.
    prerenderedDist = await mkdtemp(join(tmpdir(), 'sendwell-web-prerendered-'));
    await mkdir(join(prerenderedDist, 'prerendered'));
    for (const [file, text] of [['index.html', INDEX], ['prerendered/index.html', LANDING], ['prerendered/login.html', LOGIN]] as const) {
      await writeWithCompressedCopies(prerenderedDist, file, text);
    }
    withPages = await startGateway({ WEB_DIST_DIR: prerenderedDist });
  });

  afterAll(async () => {
    await withPages?.close();
    await rm(prerenderedDist, { recursive: true, force: true });
  });

  it.each([
    ['/', LANDING],
    ['/?utm_source=newsletter', LANDING],
    ['/login', LOGIN],
    ['/login?from=%2Fdashboard', LOGIN],
  ])('serves the page rendered at build time at %s, compressed and revalidated', async (url, body) => {
    const res = await withPages.app.inject({ method: 'GET', url, headers: { ...html, 'accept-encoding': 'br' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['vary']).toBe('accept-encoding');
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(brotliDecompressSync(res.rawPayload).toString()).toBe(body);
  });

  it.each(['/register', '/dashboard', '/login/extra', '/index'])('serves the empty shell at %s, which has no page of its own', async (url) => {
    const res = await withPages.app.inject({ method: 'GET', url, headers: html });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe(INDEX);
  });

  it('does not offer the prerendered files as URLs of their own', async () => {
    for (const url of ['/prerendered/index.html', '/prerendered/login.html', '/prerendered/login.html.br']) {
      const res = await withPages.app.inject({ method: 'GET', url, headers: { accept: 'application/json' } });
      expect(res.statusCode).toBe(404);
    }
  });
});

describe('security headers', () => {
  it('sends a CSP that admits the app and Stripe.js, and no HSTS over plain HTTP', async () => {
    const res = await gateway.app.inject({ method: 'GET', url: '/', headers: html });
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self' https://js.stripe.com");
    expect(csp).toContain("frame-src 'self' https://js.stripe.com https://hooks.stripe.com");
    expect(csp).toContain("connect-src 'self' https://api.stripe.com");
    expect(csp).toContain("default-src 'self'");
    expect(csp).not.toContain('upgrade-insecure-requests');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.headers['strict-transport-security']).toBeUndefined();
  });

  it('adds HSTS in production unless told the gateway is reached over plain HTTP', async () => {
    const prod = await startGateway({ ...PRODUCTION, WEB_DIST_DIR: dist });
    const plain = await startGateway({ ...PRODUCTION, WEB_DIST_DIR: dist, TRUST_HTTPS: 'false' });
    try {
      expect((await prod.app.inject({ method: 'GET', url: '/', headers: html })).headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
      expect((await plain.app.inject({ method: 'GET', url: '/', headers: html })).headers['strict-transport-security']).toBeUndefined();
    } finally {
      await prod.close();
      await plain.close();
    }
  });

  it('adds HSTS when served over HTTPS', async () => {
    const https = await startGateway({ TRUST_HTTPS: 'true' });
    try {
      const res = await https.app.inject({ method: 'GET', url: '/health' });
      expect(res.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
      expect(String(res.headers['content-security-policy'])).toContain('upgrade-insecure-requests');
    } finally {
      await https.close();
    }
  });
});

describe('source maps', () => {
  it('are served in development, and answer 404 in production, where they would hand out the source', async () => {
    const dev = await gateway.app.inject({ method: 'GET', url: '/assets/index-abc123.js.map' });
    expect(dev.statusCode).toBe(200);
    expect(dev.body).toBe(SOURCE_MAP);
    const prod = await startGateway({ ...PRODUCTION, WEB_DIST_DIR: dist });
    try {
      for (const headers of [{}, html]) {
        const res = await prod.app.inject({ method: 'GET', url: '/assets/index-abc123.js.map', headers });
        expect(res.statusCode).toBe(404);
        expect(res.body).not.toContain('mappings');
      }
      // The code itself is still served.
      expect((await prod.app.inject({ method: 'GET', url: '/assets/index-abc123.js' })).body).toBe(ASSET);
    } finally {
      await prod.close();
    }
  });
});

describe('without a build', () => {
  it('still starts and says how to build the web app', async () => {
    const bare = await startGateway({ WEB_DIST_DIR: join(dist, 'does-not-exist') });
    try {
      const page = await bare.app.inject({ method: 'GET', url: '/', headers: html });
      expect(page.statusCode).toBe(503);
      expect(page.headers['content-type']).toMatch(/^text\/html/);
      expect(page.body).toContain('pnpm --filter @sendwell/web build');

      const json = await bare.app.inject({ method: 'GET', url: '/dashboard', headers: { accept: 'application/json' } });
      expect(json.statusCode).toBe(503);
      expect(json.json().message).toContain('pnpm --filter @sendwell/web build');

      expect((await bare.app.inject({ method: 'GET', url: '/health' })).statusCode).toBe(200);
      expect((await bare.app.inject({ method: 'GET', url: '/api/unknown' })).statusCode).toBe(404);
    } finally {
      await bare.close();
    }
  });
});
