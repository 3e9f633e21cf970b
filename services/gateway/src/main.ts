import { createLogger, loadEnvOrExit, onShutdown } from '@sendwell/server-kit';
import { buildApp, buildInternalApp } from './app.js';
import { createDeps } from './deps.js';
import { loadEnv } from './env.js';

const env = loadEnvOrExit(loadEnv);
const logger = createLogger('gateway', env.LOG_LEVEL);
const deps = createDeps(env, logger);
const app = await buildApp(deps);
const internal = buildInternalApp(deps);
await internal.listen({ host: env.INTERNAL_HOST, port: env.INTERNAL_PORT });
await app.listen({ host: env.HOST, port: env.PORT });
onShutdown(logger, [
  ['http server', () => app.close()],
  ['internal http server', () => internal.close()],
  ['upstream pools and redis', () => deps.close()],
]);
