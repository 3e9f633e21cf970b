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
 * Ready is 503 while any service is down; Redis is reported but does not fail readiness, since the
 * rate limits fail open without it.
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
    const ok = results.every(Boolean);
    return reply.status(ok ? 200 : 503).send({
      status: ok ? 'ok' : 'unavailable',
      service: 'gateway',
      checks: { ...services, redis: redisOk },
    });
  });
}
