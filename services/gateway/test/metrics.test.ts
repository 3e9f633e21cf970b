import { afterAll, beforeAll, expect, it } from 'vitest';
import { closedPortUrl, sample, startEchoServer, startGateway, type EchoServer, type Gateway } from './helpers.js';

let domains: EchoServer;
let gateway: Gateway;

beforeAll(async () => {
  domains = await startEchoServer('domains');
  gateway = await startGateway({ DOMAINS_URL: domains.url, REPORTS_URL: await closedPortUrl() });
});

afterAll(async () => {
  await gateway?.close();
  await domains?.close();
});

it('counts requests and latency by route-table entry, method and status, never by raw URL', async () => {
  await gateway.app.inject({ method: 'GET', url: '/api/domains/123?x=1' });
  await gateway.app.inject({ method: 'GET', url: '/api/domains/456' });
  await gateway.app.inject({ method: 'POST', url: '/api/domains?status=201' });
  await gateway.app.inject({ method: 'GET', url: '/api/nope/789' });
  await gateway.app.inject({ method: 'GET', url: '/health' });

  const res = await gateway.internal.inject({ method: 'GET', url: '/metrics' });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
  const text = res.body;
  const requests = (route: string, method: string, status: string) => sample(text, 'gateway_http_requests_total', { route, method, status });
  expect(requests('/api/domains*', 'GET', '200')).toBe(2);
  expect(requests('/api/domains*', 'POST', '201')).toBe(1);
  expect(requests('not_found', 'GET', '404')).toBe(1);
  expect(requests('/health', 'GET', '200')).toBe(1);
  const domainsGet = { route: '/api/domains*', method: 'GET', status: '200' };
  expect(sample(text, 'gateway_http_request_duration_seconds_count', domainsGet)).toBe(2);
  expect(sample(text, 'gateway_http_request_duration_seconds_bucket', { ...domainsGet, le: '+Inf' })).toBe(2);
  expect(sample(text, 'gateway_http_request_duration_seconds_sum', domainsGet)).toBeGreaterThan(0);
  // Default process metrics.
  expect(text).toContain('process_cpu_user_seconds_total');
  expect(text).toContain('nodejs_eventloop_lag_seconds');
  // No raw paths or ids as labels.
  expect(text).not.toMatch(/="[^"]*(123|456|789|\/api\/nope)[^"]*"/);
});

it('counts upstream failures by service and kind', async () => {
  const res = await gateway.app.inject({ method: 'GET', url: '/api/reports' });
  expect(res.statusCode).toBe(503);
  const text = (await gateway.internal.inject({ method: 'GET', url: '/metrics' })).body;
  expect(sample(text, 'gateway_upstream_failures_total', { upstream: 'reports', kind: 'unavailable' })).toBe(1);
  expect(sample(text, 'gateway_http_requests_total', { route: '/api/reports*', method: 'GET', status: '503' })).toBe(1);
});
