import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type Gateway } from './helpers.js';

const INDEX = '<!doctype html><html><head><script type="module" src="/assets/index-abc123.js"></script></head><body><div id="root"></div></body></html>';
const ASSET = 'console.log("app");';

let dist: string;
let gateway: Gateway;

beforeAll(async () => {
  dist = await mkdtemp(join(tmpdir(), 'sendwell-web-'));
  await mkdir(join(dist, 'assets'));
  await writeFile(join(dist, 'index.html'), INDEX);
  await writeFile(join(dist, 'assets', 'index-abc123.js'), ASSET);
  await writeFile(join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
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
    const text = (await gateway.app.inject({ method: 'GET', url: '/metrics' })).body;
    expect(text).toMatch(/gateway_http_requests_total\{[^}]*route="static",method="GET",status="200"[^}]*\} \d+/);
    expect(text).not.toContain('abc123');
  });
});

describe('security headers', () => {
  it('sends a CSP that admits the app and Stripe.js, and no HSTS over plain HTTP', async () => {
    const res = await gateway.app.inject({ method: 'GET', url: '/', headers: html });
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self' https://js.stripe.com");
    expect(csp).toContain('frame-src https://js.stripe.com https://hooks.stripe.com');
    expect(csp).toContain("connect-src 'self' https://api.stripe.com");
    expect(csp).toContain("default-src 'self'");
    expect(csp).not.toContain('upgrade-insecure-requests');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.headers['strict-transport-security']).toBeUndefined();
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
