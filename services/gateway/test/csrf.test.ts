import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEchoServer, startGateway, type EchoServer, type Gateway } from './helpers.js';

let upstreams: EchoServer[];
let gateway: Gateway;

beforeAll(async () => {
  upstreams = await Promise.all(['auth', 'domains', 'billing'].map((name) => startEchoServer(name)));
  const [auth, domains, billing] = upstreams;
  gateway = await startGateway({ AUTH_URL: auth!.url, DOMAINS_URL: domains!.url, BILLING_URL: billing!.url, APP_URL: 'https://app.sendwell.example/' });
});

afterAll(async () => {
  await gateway?.close();
  await Promise.all(upstreams.map((u) => u.close()));
});

const HOST = 'sendwell.test:3000';
const SESSION = { cookie: 'token=eyJ.session.jwt' };

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
const call = (method: Method, url: string, headers: Record<string, string>, payload?: string) =>
  gateway.app.inject({ method, url, headers: { host: HOST, ...headers }, ...(payload === undefined ? {} : { payload }) });

describe('cross-site protection of cookie-authenticated calls', () => {
  it.each<[Method, string]>([
    ['POST', '/api/domains/7/scan'],
    ['PUT', '/api/user/preferences'],
    ['PATCH', '/api/alerts/7'],
    ['DELETE', '/api/domains/7'],
    ['POST', '/api/auth/logout'],
  ])('refuses %s %s from another site', async (method, url) => {
    for (const headers of <Record<string, string>[]>[
      { 'sec-fetch-site': 'cross-site', origin: 'https://evil.example' },
      { 'sec-fetch-site': 'same-site', origin: 'https://evil.sendwell.test' },
      { origin: 'https://evil.example' },
      { origin: 'null' },
      // Same host, other port or scheme: another origin.
      { origin: 'http://sendwell.test:8080' },
    ]) {
      const res = await call(method, url, { ...SESSION, ...headers, 'content-type': 'application/json' }, '{}');
      expect(res.statusCode, JSON.stringify(headers)).toBe(403);
      expect(res.json()).toEqual({
        code: 'FORBIDDEN',
        message: 'Cross-site requests are not allowed. Send the request from the Sendwell app itself.',
        requestId: res.headers['x-request-id'],
      });
    }
  });

  it('lets the app itself through: same origin by Host or by APP_URL, and its dev server through the Vite proxy', async () => {
    for (const headers of <Record<string, string>[]>[
      { 'sec-fetch-site': 'same-origin', origin: `http://${HOST}` },
      { origin: `http://${HOST}` },
      { 'sec-fetch-site': 'same-origin' },
      { 'sec-fetch-site': 'same-origin', origin: 'https://app.sendwell.example' },
    ]) {
      const res = await call('POST', '/api/domains/7/scan', { ...SESSION, ...headers });
      expect(res.statusCode, JSON.stringify(headers)).toBe(200);
      expect(res.json().path).toBe('/api/domains/7/scan');
    }
    // Vite's proxy keeps the browser's Host (changeOrigin: false), so its origin is the request's own.
    const viaVite = await gateway.app.inject({
      method: 'POST',
      url: '/api/alerts/mark-all-read',
      headers: { ...SESSION, host: 'localhost:5173', origin: 'http://localhost:5173', 'sec-fetch-site': 'same-origin' },
    });
    expect(viaVite.statusCode).toBe(200);
  });

  it('asks a client sending neither Origin nor Sec-Fetch-Site for what a form cannot send', async () => {
    const json = await call('POST', '/api/domains', { ...SESSION, 'content-type': 'application/json; charset=utf-8' }, '{"domain":"example.com"}');
    expect(json.statusCode).toBe(200);
    expect((await call('POST', '/api/domains/7/scan', { ...SESSION, 'x-requested-with': 'XMLHttpRequest' })).statusCode).toBe(200);

    for (const headers of <Record<string, string>[]>[
      { 'content-type': 'application/x-www-form-urlencoded' },
      { 'content-type': 'multipart/form-data; boundary=x' },
      { 'content-type': 'text/plain' },
      { 'content-type': 'application/jsonp' },
      {},
    ]) {
      const res = await call('POST', '/api/domains/7/scan', { ...SESSION, ...headers }, 'a=1');
      expect(res.statusCode, JSON.stringify(headers)).toBe(403);
      expect(res.json()).toMatchObject({
        code: 'FORBIDDEN',
        message: 'A request authenticated by the session cookie must send Content-Type: application/json or an X-Requested-With header.',
      });
    }
  });

  it('leaves bearer-authenticated, cookieless and read-only calls alone', async () => {
    const crossSite = { 'sec-fetch-site': 'cross-site', origin: 'https://evil.example', 'content-type': 'text/plain' };
    // An Authorization header is never sent by another site's form or simple fetch.
    expect((await call('POST', '/api/domains/7/scan', { ...crossSite, ...SESSION, authorization: 'Bearer eyJ.other.jwt' })).statusCode).toBe(200);
    // No cookie, nothing to ride on: the Stripe webhook, the login form.
    const webhook = await call('POST', '/api/webhooks/stripe', { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=abc' }, '{"id":"evt_1"}');
    expect(webhook.statusCode).toBe(200);
    expect(webhook.json().upstream).toBe('billing');
    expect((await call('POST', '/api/auth/login', { ...crossSite })).statusCode).toBe(200);
    // Reads change nothing.
    expect((await call('GET', '/api/domains', { ...crossSite, ...SESSION })).statusCode).toBe(200);
  });

  it('does not take an Authorization header that is not a bearer token as proof', async () => {
    const res = await call('POST', '/api/domains/7/scan', { ...SESSION, authorization: 'Basic YTpi', origin: 'https://evil.example' });
    expect(res.statusCode).toBe(403);
  });
});
