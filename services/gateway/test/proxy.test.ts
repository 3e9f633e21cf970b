import { createHash, randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { Client, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closedPortUrl, startEchoServer, startGateway, type Echo, type EchoServer, type Gateway } from './helpers.js';

let gateway: Gateway;
const upstreams: EchoServer[] = [];

beforeAll(async () => {
  for (const name of ['auth', 'domains', 'billing', 'reports']) upstreams.push(await startEchoServer(name));
  const [auth, domains, billing, reports] = upstreams;
  gateway = await startGateway({
    AUTH_URL: auth!.url,
    DOMAINS_URL: domains!.url,
    BILLING_URL: billing!.url,
    REPORTS_URL: reports!.url,
    UPSTREAM_TIMEOUT_MS: '300',
  });
});

afterAll(async () => {
  await gateway?.close();
  await Promise.all(upstreams.map((u) => u.close()));
});

describe('routing', () => {
  const cases: [method: string, path: string, upstream: string][] = [
    ['POST', '/api/auth/login', 'auth'],
    ['GET', '/api/auth/me', 'auth'],
    ['GET', '/api/user', 'auth'],
    ['PUT', '/api/user/preferences', 'auth'],
    ['GET', '/api/domains', 'domains'],
    ['DELETE', '/api/domains/42', 'domains'],
    ['GET', '/api/domain-checks/42/history', 'domains'],
    ['PATCH', '/api/alerts/7', 'domains'],
    ['GET', '/api/sample-domains/example.com', 'domains'],
    ['POST', '/api/email-verify', 'domains'],
    ['POST', '/api/integrations/slack/test', 'domains'],
    ['GET', '/api/subscription', 'billing'],
    ['POST', '/api/subscription/cancel', 'billing'],
    ['GET', '/api/billing/invoices', 'billing'],
    ['POST', '/api/setup-intent', 'billing'],
    ['GET', '/api/payment-method', 'billing'],
    ['POST', '/api/update-payment-method', 'billing'],
    ['POST', '/api/sync-subscription', 'billing'],
    ['POST', '/api/webhooks/stripe', 'billing'],
    ['GET', '/api/reports', 'reports'],
    ['GET', '/api/reports/9/download', 'reports'],
  ];

  it.each(cases)('%s %s goes to %s', async (method, path, upstream) => {
    const res = await gateway.app.inject({ method: method as 'GET', url: `${path}?page=2&q=a%20b`, headers: { 'x-custom': 'kept', authorization: 'Bearer t0k' } });
    expect(res.statusCode).toBe(200);
    const echo = res.json<Echo>();
    expect(echo).toMatchObject({ upstream, method, path, url: `${path}?page=2&q=a%20b`, query: { page: '2', q: 'a b' } });
    expect(echo.headers['x-custom']).toBe('kept');
    expect(echo.headers.authorization).toBe('Bearer t0k');
    expect(res.headers['x-upstream']).toBe(upstream);
  });

  it('passes a JSON body and its headers through unchanged', async () => {
    const payload = JSON.stringify({ email: 'a@example.com', password: 'secret-1A' });
    const res = await gateway.app.inject({ method: 'POST', url: '/api/auth/register', headers: { 'content-type': 'application/json' }, payload });
    const echo = res.json<Echo>();
    expect(Buffer.from(echo.body!, 'base64').toString()).toBe(payload);
    expect(echo.headers['content-type']).toBe('application/json');
    expect(echo.headers['content-length']).toBe(String(Buffer.byteLength(payload)));
  });

  it('forwards the Stripe webhook body byte for byte', async () => {
    // Odd spacing, key order, unicode and a trailing newline: any re-serialisation would change the bytes.
    const raw = Buffer.from('{"id":"evt_1",  "type":"invoice.paid","data":{"object":{"amount":1200,"note":"caf\u00e9 \\u00e9"}}}\n', 'utf8');
    const res = await gateway.app.inject({
      method: 'POST',
      url: '/api/webhooks/stripe',
      headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': 't=1,v1=abc' },
      payload: raw,
    });
    expect(res.statusCode).toBe(200);
    const echo = res.json<Echo>();
    expect(echo.upstream).toBe('billing');
    expect(Buffer.from(echo.body!, 'base64').equals(raw)).toBe(true);
    expect(echo.headers['stripe-signature']).toBe('t=1,v1=abc');
  });

  it('sets the forwarding headers and ignores the ones a client sends', async () => {
    const res = await gateway.app.inject({
      method: 'GET',
      url: '/api/user',
      remoteAddress: '203.0.113.9',
      headers: { 'x-forwarded-for': '1.2.3.4', 'x-forwarded-proto': 'https', host: 'app.example.com' },
    });
    const echo = res.json<Echo>();
    // TRUSTED_PROXIES defaults to loopback: any other peer is the client, whatever the header claims.
    expect(echo.headers['x-forwarded-for']).toBe('203.0.113.9');
    expect(echo.headers['x-forwarded-proto']).toBe('http');
    expect(echo.headers['x-forwarded-host']).toBe('app.example.com');
    expect(echo.headers.host).toMatch(/^127\.0\.0\.1:\d+$/);
  });

  it('passes the status and every Set-Cookie header back', async () => {
    const res = await gateway.app.inject({ method: 'POST', url: '/api/auth/login?cookies=1&status=201' });
    expect(res.statusCode).toBe(201);
    expect(res.headers['set-cookie']).toEqual(['token=abc; Path=/; HttpOnly; SameSite=Lax', 'theme=dark; Path=/']);
    expect(res.cookies.map((c) => c.name)).toEqual(['token', 'theme']);
  });

  it('answers HEAD with headers and no body', async () => {
    const res = await gateway.app.inject({ method: 'HEAD', url: '/api/domains' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-upstream']).toBe('domains');
    expect(res.body).toBe('');
  });

  it.each(['/api/nothing', '/api/admin/other', '/api/email-verify/extra', '/api/setup-intentx', '/api/', '/api'])('answers 404 JSON for %s', async (url) => {
    const res = await gateway.app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toMatch(/application\/json/);
    expect(res.json()).toMatchObject({ code: 'NOT_FOUND', requestId: expect.any(String) });
  });
});

describe('request ids', () => {
  it('generates one, passes it upstream and echoes it', async () => {
    const res = await gateway.app.inject({ method: 'GET', url: '/api/domains' });
    const id = res.headers['x-request-id'];
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.json<Echo>().headers['x-request-id']).toBe(id);
  });

  it('keeps a safe incoming one', async () => {
    const res = await gateway.app.inject({ method: 'GET', url: '/api/domains', headers: { 'x-request-id': 'client-req.42' } });
    expect(res.headers['x-request-id']).toBe('client-req.42');
    expect(res.json<Echo>().headers['x-request-id']).toBe('client-req.42');
  });

  it('replaces an unsafe incoming one', async () => {
    const res = await gateway.app.inject({ method: 'GET', url: '/api/domains', headers: { 'x-request-id': 'bad id <script>' } });
    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.json<Echo>().headers['x-request-id']).toBe(res.headers['x-request-id']);
  });

  it('is in error answers too', async () => {
    const res = await gateway.app.inject({ method: 'GET', url: '/api/nothing', headers: { 'x-request-id': 'abc-404' } });
    expect(res.headers['x-request-id']).toBe('abc-404');
    expect(res.json().requestId).toBe('abc-404');
  });
});

describe('upstream failures', () => {
  it('answers 503 JSON with Retry-After when a service refuses the connection (it never saw the request)', async () => {
    const down = await startGateway({ BILLING_URL: await closedPortUrl() });
    try {
      const res = await down.app.inject({ method: 'POST', url: '/api/setup-intent', payload: { a: 1 } });
      expect(res.statusCode).toBe(503);
      expect(res.headers['retry-after']).toBe('1');
      expect(res.json()).toEqual({
        code: 'UPSTREAM_UNAVAILABLE',
        message: 'The billing service is unavailable. Please try again shortly.',
        requestId: res.headers['x-request-id'],
      });
      // Over a real socket too: the client gets the JSON answer, not a reset connection.
      await down.app.listen({ host: '127.0.0.1', port: 0 });
      const { port } = down.app.server.address() as AddressInfo;
      const client = new Client(`http://127.0.0.1:${port}`);
      const real = await client.request({ method: 'POST', path: '/api/webhooks/stripe', body: randomBytes(256 * 1024) });
      expect(real.statusCode).toBe(503);
      expect(await real.body.json()).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE' });
      // Resolves once the upload has been drained by the gateway and the socket is closed cleanly.
      await client.close();
    } finally {
      await down.close();
    }
  });

  it('answers 502 JSON when a service drops the connection after the request reached it', async () => {
    const res = await gateway.app.inject({ method: 'POST', url: '/api/reports/dropped?reset=1', payload: { a: 1 } });
    expect(res.statusCode).toBe(502);
    expect(res.headers['retry-after']).toBeUndefined();
    expect(res.json()).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE', message: 'The reports service is unavailable. Please try again shortly.' });
  });

  it('answers 504 JSON when a service hangs past the timeout', async () => {
    const started = Date.now();
    const res = await gateway.app.inject({ method: 'GET', url: '/api/reports?hang=3000' });
    expect(res.statusCode).toBe(504);
    expect(res.json()).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE', message: 'The reports service is unavailable. Please try again shortly.' });
    expect(Date.now() - started).toBeLessThan(2_000);
    // The pool recovers: the next call on the same service succeeds.
    const next = await gateway.app.inject({ method: 'GET', url: '/api/reports' });
    expect(next.statusCode).toBe(200);
  });

  it('answers 504 JSON, not 500, when a service stalls in the middle of its body', async () => {
    const res = await gateway.app.inject({ method: 'GET', url: '/api/reports/stalling?stall=3000' });
    expect(res.statusCode).toBe(504);
    expect(res.headers['content-type']).toMatch(/application\/json/);
    expect(res.json()).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE', message: 'The reports service is unavailable. Please try again shortly.' });
  });
});

describe('over real HTTP', () => {
  it('streams a large body both ways and keeps cookies', async () => {
    await gateway.app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = gateway.app.server.address() as AddressInfo;
    // Just under the 1 MiB body limit, and an answer far over the 64 KiB that is buffered: streamed both ways.
    const big = randomBytes(1024 * 1024 - 1024);
    const res = await request(`http://127.0.0.1:${port}/api/reports/upload?cookies=1`, {
      method: 'PUT',
      body: big,
      headers: { 'content-type': 'application/octet-stream' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['set-cookie']).toHaveLength(2);
    const echo = (await res.body.json()) as Echo;
    const received = Buffer.from(echo.body!, 'base64');
    expect(createHash('sha256').update(received).digest('hex')).toBe(createHash('sha256').update(big).digest('hex'));
  });
});
