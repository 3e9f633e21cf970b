import {
  ADMIN_ONLY_MESSAGE,
  blocklistHealthSchema,
  domainsInternalStatsSchema,
  serverStatsAnswer,
  serviceStatsSchema,
  type ServerStats,
  type ServiceStats,
} from '@sendwell/contracts';
import { forbidden, unauthorized, upstreamUnavailable, type App } from '@sendwell/server-kit';
import { z } from 'zod';
import type { GatewayMetrics } from '../metrics.js';
import type { Upstream, Upstreams } from '../proxy/upstreams.js';
import { enforceRateLimit, type RateLimiter, type RateLimitRule } from '../rate-limits.js';
import { HostReader } from './host.js';
import { TrafficReader } from './traffic.js';

const TIMEOUT_MS = 3_000;
const LOAD_FAILED = 'Failed to load server statistics. Please try again.';
const megabytes = (bytes: number) => Math.round((bytes / 1_048_576) * 10) / 10;

/** GET on a service's internal route, parsed with its contracts schema; the status for anything else. */
async function internalGet<T extends z.ZodType>(upstream: Upstream, path: string, schema: T, headers: Record<string, string> = {}): Promise<{ ok: true; body: z.infer<T> } | { ok: false; status: number | null; body: unknown }> {
  try {
    const res = await upstream.pool.request({ method: 'GET', path, headers, headersTimeout: TIMEOUT_MS, bodyTimeout: TIMEOUT_MS, signal: AbortSignal.timeout(TIMEOUT_MS) });
    const body: unknown = await res.body.json().catch(() => null);
    if (res.statusCode !== 200) return { ok: false, status: res.statusCode, body };
    const parsed = schema.safeParse(body);
    return parsed.success ? { ok: true, body: parsed.data } : { ok: false, status: 502, body: null };
  } catch {
    return { ok: false, status: null, body: null };
  }
}

/** Healthy below 70 % of the pools in use and nothing waiting, critical from 90 % (part 2 §9's labels). */
function poolHealth(active: number, max: number, waiting: number): string {
  const usage = max > 0 ? active / max : 0;
  if (usage >= 0.9) return 'critical';
  if (usage >= 0.7 || waiting > 0) return 'warning';
  return 'healthy';
}

/**
 * `GET /api/admin/server-stats` (part 2 §2.17): the gateway gathers what each service measures of
 * itself (`/internal/stats`), the system's counts and queue depths from the domains service
 * (`/internal/system-stats`, which also checks that the caller is the administrator: the session is
 * forwarded), the block lists' self-test results from the scanner (`/internal/blocklists`), its own
 * traffic from its Prometheus metrics and the host's CPU, memory and disk.
 *
 * Rate limited like the proxied calls, and the domains service's answer (its administrator check)
 * comes first: anyone else is refused before the gateway asks any other service for anything.
 */
export interface ServerStatsOptions {
  upstreams: Upstreams;
  metrics: GatewayMetrics;
  /** Null when rate limiting is switched off. */
  rateLimiter: RateLimiter | null;
  rateLimitRules: readonly RateLimitRule[];
}

const SERVER_STATS_PATH = '/api/admin/server-stats';

export function registerServerStats(app: App, { upstreams, metrics, rateLimiter, rateLimitRules }: ServerStatsOptions): void {
  const traffic = new TrafficReader(metrics);
  const host = new HostReader();

  app.get(SERVER_STATS_PATH, async (request): Promise<ServerStats> => {
    await enforceRateLimit(rateLimiter, rateLimitRules, SERVER_STATS_PATH, request);
    const session: Record<string, string> = {};
    for (const name of ['authorization', 'cookie'] as const) {
      const value = request.headers[name];
      if (typeof value === 'string') session[name] = value;
    }
    const system = await internalGet(upstreams.domains, '/internal/system-stats', domainsInternalStatsSchema, session);
    if (!system.ok) {
      const message = (system.body as { message?: unknown } | null)?.message;
      if (system.status === 401) throw unauthorized(typeof message === 'string' ? message : 'Not authenticated');
      if (system.status === 403) throw forbidden(ADMIN_ONLY_MESSAGE);
      throw upstreamUnavailable(LOAD_FAILED);
    }
    const [others, blocklists, gateway, machine] = await Promise.all([
      Promise.all((['auth', 'billing', 'reports', 'scanner'] as const).map(async (name) => ({ name, answer: await internalGet(upstreams[name], '/internal/stats', serviceStatsSchema) }))),
      internalGet(upstreams.scanner, '/internal/blocklists', z.array(blocklistHealthSchema)),
      traffic.read(),
      host.read(),
    ]);

    const memory = process.memoryUsage();
    const gatewayStats: ServiceStats = { service: 'gateway', pool: null, queries: null, process: { uptimeSeconds: Math.round(process.uptime()), heapUsedMB: megabytes(memory.heapUsed), rssMB: megabytes(memory.rss) } };
    const { system: figures, ...domainsStats } = system.body;
    const services = [
      { ...gatewayStats, reachable: true },
      { ...domainsStats, reachable: true },
      ...others.map(({ name, answer }) => (answer.ok ? { ...answer.body, reachable: true } : { service: name, pool: null, queries: null, process: { uptimeSeconds: 0, heapUsedMB: 0, rssMB: 0 }, reachable: false })),
    ];
    const pools = services.flatMap((s) => (s.pool ? [s.pool] : []));
    const active = pools.reduce((n, p) => n + p.total - p.idle, 0);
    const max = pools.reduce((n, p) => n + p.max, 0);
    const queries = services.flatMap((s) => (s.queries ? [s.queries] : []));
    const statements = queries.reduce((n, q) => n + q.count, 0);
    const scanner = services.find((s) => s.service === 'scanner');

    const answer: ServerStats = {
      database: {
        activeConnections: active,
        maxConnections: max,
        connectionPoolHealth: poolHealth(active, max, pools.reduce((n, p) => n + p.waiting, 0)),
        avgQueryTime: statements === 0 ? 0 : Math.round((queries.reduce((n, q) => n + q.avgMs * q.count, 0) / statements) * 100) / 100,
        slowQueries: queries.reduce((n, q) => n + q.slow, 0),
      },
      domains: {
        activeScans: figures.scans.active,
        domainsScannedToday: figures.scans.domainsScannedToday,
        totalDomains: figures.domains.total,
        avgScanTime: figures.scans.avgScanSeconds,
        failedScans: figures.scans.failedLast24h,
      },
      monitoring: {
        scheduledScans: figures.domains.scheduled,
        continuousMonitoringActive: scanner?.reachable === true,
        alertsLast24h: figures.alerts.raisedLast24h,
        notificationsSent: figures.alerts.deliveredLast24h,
      },
      users: { totalUsers: figures.users.total, activeUsers: figures.users.active, premiumUsers: figures.users.premium },
      system: {
        uptime: gatewayStats.process.uptimeSeconds,
        ...machine,
        heapUsedMB: Math.round(services.reduce((n, s) => n + s.process.heapUsedMB, 0) * 10) / 10,
        rssUsedMB: Math.round(services.reduce((n, s) => n + s.process.rssMB, 0) * 10) / 10,
      },
      services,
      queues: figures.queues,
      history: figures.history,
      gateway,
      blocklists: blocklists.ok ? blocklists.body : [],
      measuredAt: new Date().toISOString(),
    };
    // What the page reads is checked against the contracts before it leaves.
    const checked = serverStatsAnswer.safeParse(answer);
    if (!checked.success) throw upstreamUnavailable(LOAD_FAILED, checked.error);
    return checked.data;
  });
}
