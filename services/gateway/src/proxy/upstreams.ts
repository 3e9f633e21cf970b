import { Pool } from 'undici';
import { UPSTREAMS, type UpstreamName } from './route-table.js';

export interface Upstream {
  name: UpstreamName;
  url: string;
  pool: Pool;
}

export type Upstreams = Record<UpstreamName, Upstream>;

export interface UpstreamSettings {
  urls: Record<UpstreamName, string>;
  timeoutMs: number;
  connections: number;
}

/**
 * One undici keep-alive pool per service. Idle sockets are dropped after 30 s, well under the
 * services' 72 s keep-alive, so the gateway never writes to a socket the service is closing.
 */
export function createUpstreams({ urls, timeoutMs, connections }: UpstreamSettings): Upstreams {
  const make = (name: UpstreamName): Upstream => ({
    name,
    url: urls[name],
    pool: new Pool(urls[name], {
      connections,
      pipelining: 1,
      keepAliveTimeout: 30_000,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
      connect: { timeout: Math.min(timeoutMs, 10_000) },
    }),
  });
  return Object.fromEntries(UPSTREAMS.map((name) => [name, make(name)])) as Upstreams;
}

export async function closeUpstreams(upstreams: Upstreams): Promise<void> {
  await Promise.all(Object.values(upstreams).map((u) => u.pool.close()));
}

/** GET <service>/health within a short deadline; any answer other than 200 counts as down. */
export async function upstreamHealthy(upstream: Upstream, timeoutMs = 2_000): Promise<boolean> {
  try {
    const res = await upstream.pool.request({
      method: 'GET',
      path: '/health',
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
      signal: AbortSignal.timeout(timeoutMs),
    });
    await res.body.dump();
    return res.statusCode === 200;
  } catch {
    return false;
  }
}
