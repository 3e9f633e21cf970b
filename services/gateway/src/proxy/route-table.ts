/** The services the gateway forwards to; each has a base URL in the environment and a keep-alive pool. */
import { MAX_REPORT_UPLOAD_BYTES } from '@sendwell/contracts';

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
 * The architecture's route table, as data. A `:name` segment matches any one non-empty segment (the
 * mail-flow calls live under a domain's path but are the intake service's). The scanner has no public calls (its port serves
 * health and metrics only), so nothing routes to it.
 */
export const ROUTE_TABLE: readonly RouteEntry[] = [
  { pattern: '/api/auth*', upstream: 'auth' },
  { pattern: '/api/user*', upstream: 'auth' },
  { pattern: '/api/domains*', upstream: 'domains' },
  { pattern: '/api/domain-checks*', upstream: 'domains' },
  { pattern: '/api/alerts*', upstream: 'domains' },
  { pattern: '/api/sample-domains*', upstream: 'domains' },
  { pattern: '/api/email-verify', upstream: 'domains' },
  { pattern: '/api/email-verify/batch', upstream: 'domains' },
  { pattern: '/api/integrations*', upstream: 'domains' },
  { pattern: '/api/subscription*', upstream: 'billing' },
  { pattern: '/api/billing*', upstream: 'billing' },
  { pattern: '/api/setup-intent', upstream: 'billing' },
  { pattern: '/api/payment-method', upstream: 'billing' },
  { pattern: '/api/update-payment-method', upstream: 'billing' },
  { pattern: '/api/sync-subscription', upstream: 'billing' },
  { pattern: '/api/webhooks/stripe', upstream: 'billing' },
  { pattern: '/api/reports*', upstream: 'reports' },
  { pattern: '/api/domains/:id/report-addresses', upstream: 'intake' },
  { pattern: '/api/domains/:id/mail-flow*', upstream: 'intake' },
  { pattern: '/api/domains/:id/tls-reports', upstream: 'intake' },
  { pattern: '/api/domains/:id/sender-requirements', upstream: 'intake' },
  { pattern: '/api/domains/:id/dmarc-reports*', upstream: 'intake', bodyLimit: MAX_REPORT_UPLOAD_BYTES },
  { pattern: '/api/intake/tls-rpt/*', upstream: 'intake', bodyLimit: MAX_REPORT_UPLOAD_BYTES },
  { pattern: '/api/mail-tests*', upstream: 'intake' },
  { pattern: '/api/mail-tests/:id/events', upstream: 'intake', eventStream: true },
];

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
