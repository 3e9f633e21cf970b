import type { App } from '@sendwell/server-kit';
import type { FastifyRequest } from 'fastify';
import { collectDefaultMetrics, Counter, Histogram, Registry } from 'prom-client';
import { PROXY_ROUTE } from './proxy/proxy.routes.js';
import { normalizeRequestTarget } from './proxy/request-target.js';
import { matchRoute, type RouteEntry } from './proxy/route-table.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The `route` label of a group of routes (the web app's files are all "static"). */
    metricsLabel?: string;
  }
}

export const NOT_FOUND_LABEL = 'not_found';
type Label = 'route' | 'method' | 'status';

/** One registry per gateway instance, so tests (and two apps in one process) never share counters. */
export class GatewayMetrics {
  readonly registry = new Registry();
  readonly requests = new Counter({
    name: 'gateway_http_requests_total',
    help: 'HTTP requests answered by the gateway, by route-table entry, method and status',
    labelNames: ['route', 'method', 'status'] as const,
    registers: [this.registry],
  });
  readonly duration = new Histogram({
    name: 'gateway_http_request_duration_seconds',
    help: 'Time from request to the end of the answer, by route-table entry, method and status',
    labelNames: ['route', 'method', 'status'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [this.registry],
  });
  readonly upstreamFailures = new Counter({
    name: 'gateway_upstream_failures_total',
    help: 'Forwarded requests that got no answer from their service, by service and kind (timeout, unavailable)',
    labelNames: ['upstream', 'kind'] as const,
    registers: [this.registry],
  });

  constructor() {
    this.registry.setDefaultLabels({ service: 'gateway' });
    collectDefaultMetrics({ register: this.registry });
  }
}

function entryOf(url: string): RouteEntry | undefined {
  const target = normalizeRequestTarget(url);
  return target.ok ? matchRoute(target.path) : undefined;
}

/**
 * A bounded label: the route-table entry for proxied calls, "static" for the web app, the route
 * for the gateway's own endpoints, "not_found" otherwise. Raw URLs would give unbounded series.
 */
function routeLabel(request: FastifyRequest, status: number): string {
  const url = request.routeOptions.url;
  if (url === undefined) return NOT_FOUND_LABEL;
  if (url === PROXY_ROUTE) {
    // The handler records the entry it matched; a request refused before it ran (a hook's 417) is matched here.
    const entry = request.routeTableEntry ?? entryOf(request.url);
    return entry?.pattern ?? NOT_FOUND_LABEL;
  }
  const label = request.routeOptions.config.metricsLabel;
  if (label) return status === 404 ? NOT_FOUND_LABEL : label;
  return url;
}

/** Counts every answer of the public app. */
export function countRequests(app: App, metrics: GatewayMetrics): void {
  // Label sets are few and bounded, so their children are cached: prom-client hashes the labels on every call otherwise.
  const children = new Map<string, { count: Counter.Internal; duration: Histogram.Internal<Label> }>();
  app.addHook('onResponse', (request, reply, done) => {
    const status = reply.statusCode;
    const route = routeLabel(request, status);
    const key = `${route} ${request.method} ${status}`;
    let child = children.get(key);
    if (!child) {
      const labels = { route, method: request.method, status: String(status) };
      child = { count: metrics.requests.labels(labels), duration: metrics.duration.labels(labels) };
      children.set(key, child);
    }
    child.count.inc();
    child.duration.observe(reply.elapsedTime / 1000);
    done();
  });
}

/** `GET /metrics` in Prometheus' text format; registered on the internal listener only. */
export function registerMetricsRoute(app: App, metrics: GatewayMetrics): void {
  app.get('/metrics', { logLevel: 'warn' }, async (_request, reply) => {
    const text = await metrics.registry.metrics();
    return reply.type(metrics.registry.contentType).send(text);
  });
}
