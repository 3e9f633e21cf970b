import { runService } from '@sendwell/server-kit';
import { buildApp, buildInternalApp } from './app.js';
import { createDeps } from './deps.js';
import { loadEnv } from './env.js';

await runService({
  name: 'gateway',
  loadEnv,
  createDeps,
  buildApp,
  start: async (deps, env) => {
    const internal = buildInternalApp(deps);
    await internal.listen({ host: env.INTERNAL_HOST, port: env.INTERNAL_PORT });
    return [['internal http server', () => internal.close()]];
  },
  depsCloseLabel: 'upstream pools and redis',
});
