import { runService } from '@sendwell/server-kit';
import { buildApp } from './app.js';
import { createDeps } from './deps.js';
import { loadEnv } from './env.js';
import { createIntakeSmtpServer } from './smtp/intake-smtp-server.js';

await runService({
  name: 'intake',
  loadEnv,
  createDeps,
  buildApp,
  start: async (deps, env, logger) => {
    await deps.startWorker();
    const smtp = createIntakeSmtpServer(deps);
    const smtpPort = await smtp.listen();
    logger.info({ port: smtpPort, domain: env.INTAKE_DOMAIN }, 'SMTP intake listening');
    return [['smtp server', () => smtp.close()]];
  },
  depsCloseLabel: 'intake worker, queues, redis and database',
});
