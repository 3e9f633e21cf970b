import { runService } from '@sendwell/server-kit';
import { buildApp } from './app.js';
import { createDeps, type Deps } from './deps.js';
import { loadEnv, type Env } from './env.js';
import { checksRegistry } from './scan/checks-registry.js';

await runService<Env, Deps>({
  name: 'scanner',
  loadEnv,
  createDeps: (env, logger) => createDeps(env, logger, { checks: checksRegistry }),
  buildApp,
  start: async (deps, env, logger) => {
    await deps.blocklists.start(env.SCAN_BLOCKLIST_REFRESH_MS);
    const worker = deps.startWorker();
    await deps.startScheduler();
    logger.info({ concurrency: env.SCANNER_CONCURRENCY, sweepEveryMs: env.SCAN_SWEEP_EVERY_MS }, 'scanner started');
    // Stops fetching and waits for the scans in flight to be written; they are short (checks have a deadline).
    return [['scan worker', () => worker.close()]];
  },
  depsCloseLabel: 'queues, redis, dns and database',
});
