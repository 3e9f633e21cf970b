import { JobName, type Alert } from '@sendwell/contracts';
import { startDnsServer, type TestDnsServer } from '@sendwell/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './fixtures.js';
import { factory as toolsFactory } from './tools-harness.js';

/**
 * The alerts, quick-check and email-verification routes as the real service wires them (env.ts →
 * deps.ts → app.ts): one call each through `buildApp`. Their behaviour is covered in the
 * alerts / sample-domains / email-verify route tests.
 */
let dns: TestDnsServer;
let h: Harness;

beforeAll(async () => {
  dns = await startDnsServer({ records: { 'wired.test': { MX: [{ priority: 10, exchange: 'mx.wired.test' }] }, 'mx.wired.test': { A: ['127.0.0.1'] } } });
  h = await startHarness({ DNS_SERVERS: dns.url, DNS_TIMEOUT_MS: '500', EMAIL_VERIFY_RATE_LIMIT: '2' });
});
afterAll(async () => {
  await h?.close();
  await dns?.close();
});

describe('wired into the domains service', () => {
  it('lists and marks alerts for an advanced user, and gates the rest', async () => {
    const user = await h.f.user('advanced');
    const domain = await h.f.domain({ userId: user.id });
    const alert = await toolsFactory(h.db).alert(domain, user.id);
    const headers = await h.auth(user);
    const list = await h.app.inject({ method: 'GET', url: '/api/alerts', headers });
    expect((list.json() as Alert[]).map((a) => a.id)).toEqual([alert.id]);
    expect((await h.app.inject({ method: 'POST', url: `/api/alerts/${alert.id}/mark-read`, headers })).statusCode).toBe(200);
    expect((await h.app.inject({ method: 'POST', url: '/api/alerts/mark-all-read', headers })).json()).toEqual({ success: true, updated: 0 });
    const standard = await h.auth(await h.f.user('standard'));
    expect((await h.app.inject({ method: 'GET', url: '/api/alerts', headers: standard })).statusCode).toBe(403);
  });

  it('queues the quick check on the service’s scan queue', async () => {
    const res = await h.app.inject({ method: 'GET', url: '/api/sample-domains/wired.test' });
    expect(res.json()).toEqual({ domain: { name: 'wired.test', status: 'pending', lastScan: null }, checks: null });
    const jobs = await h.deps.queues.scan.getJobs(['waiting']);
    expect(jobs.filter((j) => j.name === JobName.ScanSampleDomain)).toHaveLength(1);
  });

  it('verifies an address with the env’s DNS servers and rate limit', async () => {
    const headers = await h.auth(await h.f.user('free'));
    const call = () => h.app.inject({ method: 'POST', url: '/api/email-verify', headers, payload: { email: 'jane@wired.test' } });
    expect((await call()).json()).toMatchObject({ email: 'jane@wired.test', category: 'send_to', status: 'valid' });
    expect((await call()).statusCode).toBe(200);
    expect((await call()).statusCode).toBe(429);
  });
});
