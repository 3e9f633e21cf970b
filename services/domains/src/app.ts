import { createApp, registerHealth, type App, type Logger } from '@sendwell/server-kit';

export interface AppDeps {
  logger: Logger;
}

/** Only health for now: this service's calls arrive with its own issue, and nothing here pretends otherwise. */
export async function buildApp({ logger }: AppDeps): Promise<App> {
  const app = createApp({ logger });
  registerHealth(app, { service: 'domains' });
  return app;
}
