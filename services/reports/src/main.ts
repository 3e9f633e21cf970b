import { runService } from '@sendwell/server-kit';
import { buildApp } from './app.js';
import { createDeps } from './deps.js';
import { loadEnv } from './env.js';

await runService({
  name: 'reports',
  loadEnv,
  createDeps,
  buildApp,
  start: async (deps) => {
    await deps.startWorker();
    return [];
  },
  depsCloseLabel: 'report worker, queues, redis and database',
});
