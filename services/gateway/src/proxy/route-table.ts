/** The services the gateway forwards to; each has a base URL in the environment and a keep-alive pool. */
export const UPSTREAMS = ['auth', 'domains', 'billing', 'reports', 'scanner'] as const;
export type UpstreamName = (typeof UPSTREAMS)[number];

export interface RouteEntry {
  /** As written in ARCHITECTURE.md: a trailing `*` matches any continuation, otherwise the path must be exact. */
  pattern: string;
  upstream: UpstreamName;
}

/**
 * The architecture's route table, as data. The scanner has no public calls (its port serves
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
];

interface CompiledEntry extends RouteEntry {
  prefix: string;
  exact: boolean;
}

const compiled: CompiledEntry[] = ROUTE_TABLE.map((entry) => ({
  ...entry,
  exact: !entry.pattern.endsWith('*'),
  prefix: entry.pattern.replace(/\*$/, ''),
}))
  // Longest prefix first, so that a more specific entry always wins whatever the table's order.
  .sort((a, b) => b.prefix.length - a.prefix.length);

/** The table entry a path (without its query) belongs to, or undefined for a path nothing serves. */
export function matchRoute(path: string): RouteEntry | undefined {
  for (const entry of compiled) {
    if (entry.exact ? path === entry.prefix : path.startsWith(entry.prefix)) return entry;
  }
  return undefined;
}

/** The path part of a raw request URL. */
export function pathOf(url: string): string {
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
}
