/** The services the gateway forwards to; each has a base URL in the environment and a keep-alive pool. */
import { API_ROUTES, MAX_REPORT_UPLOAD_BYTES } from '@sendwell/contracts';

export const UPSTREAMS = ['auth', 'domains', 'billing', 'reports', 'scanner', 'intake'] as const;
export type UpstreamName = (typeof UPSTREAMS)[number];

export interface RouteEntry {
  /** As written in ARCHITECTURE.md: a trailing `*` matches any continuation, otherwise the path must be exact. */
  pattern: string;
  upstream: UpstreamName;
  /** A larger body than the gateway's default, for the calls that take a report file. */
  bodyLimit?: number;
  /**
   * The answer is a stream of server-sent events: its silences (up to a heartbeat apart) are not
   * the service stalling, so the wait between two chunks is EVENT_STREAM_IDLE_MS, not the upstream timeout.
   */
  eventStream?: boolean;
}

/** The services heartbeat their event streams every 15 s: four missed ones mean the service is gone. */
export const EVENT_STREAM_IDLE_MS = 60_000;

/**
 * The path families the gateway forwards whole (a trailing `*`: any continuation), so a service
 * answers its own unknown paths. Which service each goes to is read from API_ROUTES, not written here.
 */
const FAMILIES = [
  '/api/auth',
  '/api/user',
  '/api/domains',
  '/api/domain-checks',
  '/api/alerts',
  '/api/sample-domains',
  '/api/integrations',
  '/api/subscription',
  '/api/billing',
  '/api/reports',
  '/api/mail-tests',
  // The mail-flow calls live under a domain's path but are the intake service's.
  '/api/domains/:id/mail-flow',
  '/api/domains/:id/dmarc-reports',
  '/api/intake/tls-rpt/',
] as const;

/** The calls whose answer is a stream of server-sent events. */
const EVENT_STREAMS: ReadonlySet<string> = new Set(['GET /api/mail-tests/:id/events']);

/** Whether a route's path (as API_ROUTES writes it, `:name` segments included) lies in a family. */
function inFamily(family: string, path: string): boolean {
  return family.endsWith('/') ? path.startsWith(family) : path === family || path.startsWith(`${family}/`);
}

/** The service a family goes to: the one serving the family's own path, else the one serving every call in it. */
function familyUpstream(family: string): UpstreamName {
  const own = API_ROUTES.find((route) => route.path === family);
  if (own) return own.service;
  const services = new Set(API_ROUTES.filter((route) => inFamily(family, route.path)).map((route) => route.service));
  const [service, ...others] = services;
  if (!service || others.length > 0) throw new Error(`The gateway family ${family}* has no single service in API_ROUTES`);
  return service;
}

/**
 * The route table, derived from the contracts' API_ROUTES. A `:name` segment matches any one
 * non-empty segment. Each family goes to its service; each call outside a family of its own service
 * (or that answers an event stream) gets an exact entry. An entry that takes a report file (a
 * `rawBody` call) has the larger body limit. The scanner has no public calls (its port serves health
 * and metrics only), so nothing routes to it.
 */
function deriveRouteTable(): RouteEntry[] {
  const entries = new Map<string, RouteEntry>(FAMILIES.map((family) => [`${family}*`, { pattern: `${family}*`, upstream: familyUpstream(family) }]));
  for (const route of API_ROUTES) {
    const family = FAMILIES.filter((f) => inFamily(f, route.path)).sort((x, y) => y.length - x.length)[0];
    const eventStream = EVENT_STREAMS.has(`${route.method} ${route.path}`);
    const key = family && !eventStream && entries.get(`${family}*`)!.upstream === route.service ? `${family}*` : route.path;
    const entry = entries.get(key) ?? { pattern: key, upstream: route.service };
    if (entry.upstream !== route.service) throw new Error(`${route.method} ${route.path} is served by ${route.service}, but ${key} goes to ${entry.upstream}`);
    if (eventStream) entry.eventStream = true;
    if (route.rawBody) entry.bodyLimit = MAX_REPORT_UPLOAD_BYTES;
    entries.set(key, entry);
  }
  return [...entries.values()];
}

export const ROUTE_TABLE: readonly RouteEntry[] = deriveRouteTable();

interface CompiledEntry extends RouteEntry {
  prefix: string;
  exact: boolean;
  /** Indexes of the `:name` segments of `prefix`, empty for most entries. */
  params: number[];
}

const compiled: CompiledEntry[] = ROUTE_TABLE.map((entry) => {
  const prefix = entry.pattern.replace(/\*$/, '');
  const params = prefix.split('/').flatMap((segment, index) => (segment.startsWith(':') ? [index] : []));
  return { ...entry, exact: !entry.pattern.endsWith('*'), prefix, params };
})
  // Longest prefix first, so that a more specific entry always wins whatever the table's order.
  .sort((a, b) => b.prefix.length - a.prefix.length);

/** The entry's prefix with its `:name` segments replaced by the path's own, or null when a segment is missing or empty. */
function withPathParams(entry: CompiledEntry, path: string): string | null {
  if (entry.params.length === 0) return entry.prefix;
  const segments = entry.prefix.split('/');
  const given = path.split('/');
  for (const index of entry.params) {
    const value = given[index];
    if (!value) return null;
    segments[index] = value;
  }
  return segments.join('/');
}

/** The table entry a path (without its query) belongs to, or undefined for a path nothing serves. */
export function matchRoute(path: string): RouteEntry | undefined {
  for (const entry of compiled) {
    const prefix = withPathParams(entry, path);
    if (prefix !== null && (entry.exact ? path === prefix : path.startsWith(prefix))) return entry;
  }
  return undefined;
}

/** The path part of a raw request URL. */
export function pathOf(url: string): string {
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
}
