import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { closedPortUrl, startEchoServer, startGateway, type EchoServer } from './helpers.js';

const servers: EchoServer[] = [];
const SHELL = '<!doctype html><html><body><div id="root"></div></body></html>';

beforeAll(async () => {
  for (const name of ['auth', 'domains', 'billing', 'reports', 'scanner', 'intake']) servers.push(await startEchoServer(name));
});

afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

const urls = () => ({
  AUTH_URL: servers[0]!.url,
  DOMAINS_URL: servers[1]!.url,
  BILLING_URL: servers[2]!.url,
  REPORTS_URL: servers[3]!.url,
  SCANNER_URL: servers[4]!.url,
  INTAKE_URL: servers[5]!.url,
});

it('answers /health on both listeners and reports every service on the internal /health/ready', async () => {
  const gateway = await startGateway(urls());
  try {
    expect((await gateway.app.inject({ method: 'GET', url: '/health' })).json()).toEqual({ status: 'ok', service: 'gateway' });
    expect((await gateway.internal.inject({ method: 'GET', url: '/health' })).json()).toEqual({ status: 'ok', service: 'gateway' });
    const ready = await gateway.internal.inject({ method: 'GET', url: '/health/ready' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({
      status: 'ok',
      service: 'gateway',
      checks: { auth: true, domains: true, billing: true, reports: true, scanner: true, intake: true, redis: true },
    });
  } finally {
    await gateway.close();
  }
});

it('stays ready while a service is down, naming it, and still serves the services that are up', async () => {
  const gateway = await startGateway({ ...urls(), SCANNER_URL: await closedPortUrl() });
  try {
    const ready = await gateway.internal.inject({ method: 'GET', url: '/health/ready' });
    // One service's outage must not take every gateway out of the load balancer.
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toMatchObject({ status: 'degraded', checks: { scanner: false, auth: true } });
    expect((await gateway.app.inject({ method: 'GET', url: '/health' })).statusCode).toBe(200);
    expect((await gateway.app.inject({ method: 'GET', url: '/api/auth/me' })).statusCode).toBe(200);
  } finally {
    await gateway.close();
  }
});

it('keeps /metrics and /health/ready off the public listener', async () => {
  const dist = await mkdtemp(join(tmpdir(), 'sendwell-web-'));
  await writeFile(join(dist, 'index.html'), SHELL);
  const gateway = await startGateway({ ...urls(), WEB_DIST_DIR: dist });
  try {
    for (const url of ['/metrics', '/health/ready', '/health/ready?x=1']) {
      const res = await gateway.app.inject({ method: 'GET', url, headers: { accept: 'application/json' } });
      expect(res.statusCode, url).toBe(404);
      expect(res.json().code).toBe('NOT_FOUND');
      // A browser gets the app's shell, as for any client-side route.
      expect((await gateway.app.inject({ method: 'GET', url, headers: { accept: 'text/html' } })).body).toBe(SHELL);
    }
    expect((await gateway.internal.inject({ method: 'GET', url: '/metrics' })).body).toContain('gateway_http_requests_total');
    // The internal listener serves nothing else: no proxy, no web app.
    expect((await gateway.internal.inject({ method: 'GET', url: '/api/domains' })).statusCode).toBe(404);
    expect((await gateway.internal.inject({ method: 'GET', url: '/', headers: { accept: 'text/html' } })).statusCode).toBe(404);
  } finally {
    await gateway.close();
    await rm(dist, { recursive: true, force: true });
  }
});
