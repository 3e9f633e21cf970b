import { afterAll, beforeAll, expect, it } from 'vitest';
import { closedPortUrl, startEchoServer, startGateway, type EchoServer } from './helpers.js';

const servers: EchoServer[] = [];

beforeAll(async () => {
  for (const name of ['auth', 'domains', 'billing', 'reports', 'scanner']) servers.push(await startEchoServer(name));
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
});

it('answers /health and reports every service on /health/ready', async () => {
  const gateway = await startGateway(urls());
  try {
    expect((await gateway.app.inject({ method: 'GET', url: '/health' })).json()).toEqual({ status: 'ok', service: 'gateway' });
    const ready = await gateway.app.inject({ method: 'GET', url: '/health/ready' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({
      status: 'ok',
      service: 'gateway',
      checks: { auth: true, domains: true, billing: true, reports: true, scanner: true, redis: true },
    });
  } finally {
    await gateway.close();
  }
});

it('is not ready while a service is down', async () => {
  const gateway = await startGateway({ ...urls(), SCANNER_URL: await closedPortUrl() });
  try {
    const ready = await gateway.app.inject({ method: 'GET', url: '/health/ready' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toMatchObject({ status: 'unavailable', checks: { scanner: false, auth: true } });
  } finally {
    await gateway.close();
  }
});
