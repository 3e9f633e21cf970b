import { createLogger, loadEnvOrExit, onShutdown } from '@sendwell/server-kit';
import { buildApp } from './app.js';
import { createDeps } from './deps.js';
import { loadEnv } from './env.js';
import { createIntakeSmtpServer } from './smtp/intake-smtp-server.js';

const env = loadEnvOrExit(loadEnv);
const logger = createLogger('intake', env.LOG_LEVEL);
const deps = createDeps(env, logger);
const app = await buildApp(deps);
const smtp = createIntakeSmtpServer(deps);
await deps.startWorker();
await app.listen({ host: env.HOST, port: env.PORT });
const smtpPort = await smtp.listen();
logger.info({ port: smtpPort, domain: env.INTAKE_DOMAIN }, 'SMTP intake listening');
onShutdown(logger, [
  ['http server', () => app.close()],
  ['smtp server', () => smtp.close()],
  ['intake worker, queues, redis and database', () => deps.close()],
]);
