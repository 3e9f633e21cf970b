import { createLogger, loadEnvOrExit, onShutdown } from '@sendwell/server-kit';
import { buildApp } from './app.js';
import { createDeps } from './deps.js';
import { loadEnv } from './env.js';

const env = loadEnvOrExit(loadEnv);
const logger = createLogger('intake', env.LOG_LEVEL);
const deps = createDeps(env, logger);
const app = await buildApp(deps);
await app.listen({ host: env.HOST, port: env.PORT });
onShutdown(logger, [
  ['http server', () => app.close()],
  ['queues, redis and database', () => deps.close()],
]);
