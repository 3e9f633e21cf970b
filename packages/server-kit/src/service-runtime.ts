import type { App } from './app.js';
import { loadEnvOrExit } from './env.js';
import { createLogger, type Logger } from './logger.js';
import { onShutdown, type ShutdownStep } from './shutdown.js';

/** What every service's settings carry for its process. */
export interface ServiceEnv {
  HOST: string;
  PORT: number;
  LOG_LEVEL: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
}

export interface ServiceSpec<E extends ServiceEnv, D extends { close(): Promise<void> }> {
  /** The logger's `service` field. */
  name: string;
  loadEnv: () => E;
  createDeps: (env: E, logger: Logger) => D;
  buildApp: (deps: D) => Promise<App>;
  /**
   * Starts what runs beside the HTTP server (workers, schedulers, another listener) before it listens,
   * and answers their shutdown steps: closed after the HTTP server, before `deps`.
   */
  start?: (deps: D, env: E, logger: Logger) => Promise<ShutdownStep[]>;
  /** The name of the last shutdown step, `deps.close()`: what it closes. */
  depsCloseLabel: string;
}

/**
 * A service's process, the same for every service: settings (exit with the reason when they are
 * wrong), logger, wiring, app, what runs beside it, listen, and the shutdown order on a signal
 * (HTTP server first, so no new request starts work that is being torn down under it).
 */
export async function runService<E extends ServiceEnv, D extends { close(): Promise<void> }>(spec: ServiceSpec<E, D>): Promise<{ env: E; logger: Logger; deps: D; app: App }> {
  const env = loadEnvOrExit(spec.loadEnv);
  const logger = createLogger(spec.name, env.LOG_LEVEL);
  const deps = spec.createDeps(env, logger);
  const app = await spec.buildApp(deps);
  const beside = (await spec.start?.(deps, env, logger)) ?? [];
  await app.listen({ host: env.HOST, port: env.PORT });
  onShutdown(logger, [['http server', () => app.close()], ...beside, [spec.depsCloseLabel, () => deps.close()]]);
  return { env, logger, deps, app };
}
