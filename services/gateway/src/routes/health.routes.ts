import type { App } from '@sendwell/server-kit';
import type { Redis } from 'ioredis';
import { upstreamHealthy, type Upstreams } from '../proxy/upstreams.js';

export interface HealthRoutesDeps {
  upstreams: Upstreams;
  redis: Redis;
}

/** `/health`: the gateway process is up, and nothing more (the public listener has it for load balancers). */
export function registerLiveness(app: App): void {
  app.get('/health', { logLevel: 'warn' }, async () => ({ status: 'ok', service: 'gateway' }));
}

/**
 * For the internal listener: `/health`, and `/health/ready`, each service's own `/health` and Redis.
 * The gateway is ready whenever it can serve, whatever answers behind it: it serves the web app and
 * every route of a service that is up, and a 503 for one that is down. A readiness that failed with
 * any service would turn one service's outage into the whole product's (a load balancer, or
 * Kubernetes, would send nothing to any gateway). The body names what answers: `ok` when everything
 * does, `degraded` otherwise. Redis is reported too; the rate limits fail open without it.
 */
export function registerHealthRoutes(app: App, { upstreams, redis }: HealthRoutesDeps): void {
  registerLiveness(app);

  app.get('/health/ready', { logLevel: 'warn' }, async (_request, reply) => {
    const list = Object.values(upstreams);
    const [results, redisOk] = await Promise.all([
      Promise.all(list.map((u) => upstreamHealthy(u))),
      redis.ping().then((r) => r === 'PONG', () => false),
    ]);
    const services = Object.fromEntries(list.map((u, i) => [u.name, results[i] ?? false]));
    const allUp = results.every(Boolean);
    return reply.status(200).send({
      status: allUp ? 'ok' : 'degraded',
      service: 'gateway',
      checks: { ...services, redis: redisOk },
    });
  });
}
