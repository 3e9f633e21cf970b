import { createLogger, loadEnvOrExit, onShutdown } from '@sendwell/server-kit';
import { buildApp } from './app.js';
import { loadEnv } from './env.js';

const env = loadEnvOrExit(loadEnv);
const logger = createLogger('scanner', env.LOG_LEVEL);
const app = await buildApp({ logger });
await app.listen({ host: env.HOST, port: env.PORT });
onShutdown(logger, [['http server', () => app.close()]]);
