import type { AddressInfo } from 'node:net';
import { ADMIN_ONLY_MESSAGE, serverStatsAnswer, type ServiceStats, type SystemFigures } from '@sendwell/contracts';
import { deleteKeys } from '@sendwell/testing';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closedPortUrl, startGateway, type Gateway } from './helpers.js';

/**
 * The gateway's composition of `/api/admin/server-stats`. The services here are small HTTP servers that
 * answer their internal routes with figures in the contracts' shapes; the browser test of
 * /server-stats runs the same call against every real service.
 */
const stats = (service: string, pool: ServiceStats['pool'], queries: ServiceStats['queries']): ServiceStats => ({
  service,
  pool,
  queries,
  process: { uptimeSeconds: 100, heapUsedMB: 20, rssMB: 80 },
});
const system: SystemFigures = {
  scans: { active: 3, domainsScannedToday: 40, avgScanSeconds: 1.5, failedLast24h: 2 },
  domains: { total: 50, scheduled: 45 },
  users: { total: 12, active: 7, premium: 5 },
  alerts: { raisedLast24h: 9, deliveredLast24h: 14 },
  queues: [{ name: 'scan', waiting: 4, active: 3, delayed: 0, failed: 1 }],
  history: {
    months: ['2026-10-01', '2026-11-01', '2026-12-01'],
    keptDays: 395,
    lastRun: { at: '2026-11-27T03:45:00.000Z', error: null, created: ['2026-12-01'], dropped: [], carriedScans: 0, carriedScores: 0, dropMs: 0 },
  },
};

const servers: FastifyInstance[] = [];
/** Requests each stand-in received, by "service path". */
const hits: string[] = [];
async function serve(routes: (app: FastifyInstance) => void, name = 'other'): Promise<string> {
  const app = Fastify();
  app.addHook('onRequest', async (request) => {
    hits.push(`${name} ${request.url}`);
  });
  routes(app);
  await app.listen({ host: '127.0.0.1', port: 0 });
  servers.push(app);
  return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
}

let gateway: Gateway;
let domains: string;
beforeAll(async () => {
  domains = await serve((app) =>
    app.get('/internal/system-stats', async (request, reply) => {
      if (request.headers.authorization === 'Bearer admin' || request.headers.cookie === 'token=admin') {
        return { ...stats('domains', { total: 8, idle: 2, waiting: 0, max: 10 }, { count: 300, avgMs: 2, slow: 1 }), system };
      }
      if (request.headers.authorization) return reply.code(403).send({ code: 'FORBIDDEN', message: ADMIN_ONLY_MESSAGE });
      return reply.code(401).send({ code: 'UNAUTHORIZED', message: 'Not authenticated' });
    }),
    'domains',
  );
  const plain = (name: string, pool: ServiceStats['pool'], queries: ServiceStats['queries']) => serve((app) => app.get('/internal/stats', async () => stats(name, pool, queries)), name);
  gateway = await startGateway({
    DOMAINS_URL: domains,
    AUTH_URL: await plain('auth', { total: 2, idle: 1, waiting: 0, max: 10 }, { count: 100, avgMs: 6, slow: 0 }),
    BILLING_URL: await plain('billing', { total: 1, idle: 1, waiting: 0, max: 10 }, { count: 0, avgMs: 0, slow: 0 }),
    REPORTS_URL: await plain('reports', null, null),
    SCANNER_URL: await closedPortUrl(),
  });
});
afterAll(async () => {
  await gateway?.close();
  await Promise.all(servers.map((s) => s.close()));
});

const get = (headers: Record<string, string> = {}) => gateway.app.inject({ method: 'GET', url: '/api/admin/server-stats', headers });

describe('GET /api/admin/server-stats', () => {
  it("adds up every service's pool and statements, takes the system's counts and queues, and says which service did not answer", async () => {
    await gateway.app.inject({ method: 'GET', url: '/api/nothing' }); // a request for the traffic figures
    const res = await get({ authorization: 'Bearer admin' });
    expect(res.statusCode, res.body).toBe(200);
    const body = serverStatsAnswer.parse(res.json());
    // Pools: domains 6 of 10 in use, auth 1, billing 0: 7 of 30.
    expect(body.database).toEqual({ activeConnections: 7, maxConnections: 30, connectionPoolHealth: 'healthy', avgQueryTime: 3, slowQueries: 1 });
    expect(body.domains).toEqual({ activeScans: 3, domainsScannedToday: 40, totalDomains: 50, avgScanTime: 1.5, failedScans: 2 });
    expect(body.monitoring).toEqual({ scheduledScans: 45, continuousMonitoringActive: false, alertsLast24h: 9, notificationsSent: 14 });
    expect(body.users).toEqual({ totalUsers: 12, activeUsers: 7, premiumUsers: 5 });
    expect(body.queues).toEqual(system.queues);
    expect(body.history).toEqual(system.history);
    expect(body.services.map((s) => [s.service, s.reachable])).toEqual([
      ['gateway', true],
      ['domains', true],
      ['auth', true],
      ['billing', true],
      ['reports', true],
      ['scanner', false],
    ]);
    // Memory is the sum of the processes: four stand-ins at 80 MB and the gateway itself.
    expect(body.system.rssUsedMB).toBeGreaterThan(320);
    expect(body.system.cpuUsage).toBeGreaterThanOrEqual(0);
    expect(body.gateway.requestsTotal).toBeGreaterThanOrEqual(1);
    expect(body.gateway.errorRate).toBe(0);
    expect(body.gateway.p95Ms).toBeGreaterThan(0);
  });

  it("shows the scanner's block list registry: each list's state at its test points", async () => {
    const blocklists = [
      { zone: 'zen.example', name: 'Example ZEN', kind: 'ip', state: 'healthy', reason: null, checkedAt: '2026-11-26T12:00:00.000Z', since: '2026-11-26T10:00:00.000Z' },
      { zone: 'all.example', name: 'all.example', kind: 'ip', state: 'degraded', reason: 'lists everything', checkedAt: '2026-11-26T12:00:00.000Z', since: '2026-11-26T11:00:00.000Z' },
    ];
    const scanner = await serve((app) => {
      app.get('/internal/stats', async () => stats('scanner', { total: 1, idle: 1, waiting: 0, max: 10 }, null));
      app.get('/internal/blocklists', async () => blocklists);
    });
    const withScanner = await startGateway({ DOMAINS_URL: domains, SCANNER_URL: scanner });
    try {
      const body = serverStatsAnswer.parse((await withScanner.app.inject({ method: 'GET', url: '/api/admin/server-stats', headers: { authorization: 'Bearer admin' } })).json());
      expect(body.blocklists).toEqual(blocklists);
      expect(body.monitoring.continuousMonitoringActive).toBe(true);
    } finally {
      await withScanner.close();
    }
    // Without a scanner: no list known, the rest of the page still answers.
    expect(serverStatsAnswer.parse((await get({ authorization: 'Bearer admin' })).json()).blocklists).toEqual([]);
  });

  it('forwards the session cookie too', async () => {
    expect((await get({ cookie: 'token=admin' })).statusCode).toBe(200);
  });

  it("answers 403 with the spec's message to anyone but the administrator, and 401 without a session", async () => {
    const refused = await get({ authorization: 'Bearer someone' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ code: 'FORBIDDEN', message: ADMIN_ONLY_MESSAGE });
    expect((await get()).statusCode).toBe(401);
  });

  it("asks no other service anything for someone who is not the administrator", async () => {
    hits.length = 0;
    for (let i = 0; i < 5; i++) expect((await get({ authorization: 'Bearer someone' })).statusCode).toBe(403);
    expect((await get()).statusCode).toBe(401);
    // The stand-ins count every request they get: the domains service's check, and nothing else.
    expect(hits).toEqual(Array(6).fill('domains /internal/system-stats'));
    hits.length = 0;
    expect((await get({ authorization: 'Bearer admin' })).statusCode).toBe(200);
    expect(hits.sort()).toEqual(['auth /internal/stats', 'billing /internal/stats', 'domains /internal/system-stats', 'reports /internal/stats']);
  });

  it('answers 429 with Retry-After past its rate limit, before asking the domains service', async () => {
    let asked = 0;
    const counted = await serve((app) =>
      app.get('/internal/system-stats', async () => {
        asked += 1;
        return { ...stats('domains', null, null), system };
      }),
    );
    const limited = await startGateway({ DOMAINS_URL: counted, RATE_LIMIT_SERVER_STATS: '2/1m' });
    try {
      const call = () => limited.app.inject({ method: 'GET', url: '/api/admin/server-stats', headers: { authorization: 'Bearer admin' }, remoteAddress: '198.51.100.30' });
      expect((await call()).statusCode).toBe(200);
      expect((await call()).statusCode).toBe(200);
      const refused = await call();
      expect(refused.statusCode).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect(refused.json()).toMatchObject({ code: 'RATE_LIMITED', message: 'Too many statistics requests. Please try again later.' });
      expect(asked).toBe(2);
    } finally {
      await deleteKeys(limited.deps.env.RATE_LIMIT_PREFIX);
      await limited.close();
    }
  });

  it('answers 503 when the domains service does not answer', async () => {
    const lonely = await startGateway({ DOMAINS_URL: await closedPortUrl() });
    try {
      const res = await lonely.app.inject({ method: 'GET', url: '/api/admin/server-stats', headers: { authorization: 'Bearer admin' } });
      expect(res.statusCode).toBe(503);
      expect(res.json().message).toBe('Failed to load server statistics. Please try again.');
    } finally {
      await lonely.close();
    }
  });
});
