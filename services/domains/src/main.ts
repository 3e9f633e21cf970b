import { runService } from '@sendwell/server-kit';
import { buildApp } from './app.js';
import { createDeps } from './deps.js';
import { loadEnv } from './env.js';

await runService({
  name: 'domains',
  loadEnv,
  createDeps,
  buildApp,
  start: async (deps) => {
    await deps.startMaintenance();
    await deps.startNotify();
    return [];
  },
  depsCloseLabel: 'maintenance and notify workers, queues, redis and database',
});
