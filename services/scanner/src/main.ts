import { createLogger, loadEnvOrExit, onShutdown } from '@sendwell/server-kit';
import { buildApp } from './app.js';
import { createDeps } from './deps.js';
import { loadEnv } from './env.js';
import { checksRegistry } from './scan/checks-registry.js';

const env = loadEnvOrExit(loadEnv);
const logger = createLogger('scanner', env.LOG_LEVEL);
const deps = createDeps(env, logger, { checks: checksRegistry });
const app = await buildApp(deps);
await deps.blocklists.start(env.SCAN_BLOCKLIST_REFRESH_MS);
const worker = deps.startWorker();
await deps.startScheduler();
await app.listen({ host: env.HOST, port: env.PORT });
logger.info({ concurrency: env.SCANNER_CONCURRENCY, sweepEveryMs: env.SCAN_SWEEP_EVERY_MS }, 'scanner started');
onShutdown(logger, [
  ['http server', () => app.close()],
  // Stops fetching and waits for the scans in flight to be written; they are short (checks have a deadline).
  ['scan worker', () => worker.close()],
  ['queues, redis, dns and database', () => deps.close()],
]);
