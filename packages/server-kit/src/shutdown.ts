import type { Logger } from './logger.js';

export type ShutdownStep = [name: string, close: () => Promise<unknown>];

/**
 * On SIGINT or SIGTERM, runs the steps in order (server, then workers, queues, Redis, database) and
 * exits. A second signal, or a step hanging past the grace period, exits at once.
 */
export function onShutdown(logger: Logger, steps: ShutdownStep[], graceMs = 25_000): void {
  let stopping = false;
  const stop = async (signal: NodeJS.Signals) => {
    if (stopping) {
      logger.warn({ signal }, 'second signal: exiting now');
      process.exit(1);
    }
    stopping = true;
    logger.info({ signal }, 'shutting down');
    const timer = setTimeout(() => {
      logger.error('shutdown took too long: exiting');
      process.exit(1);
    }, graceMs);
    timer.unref();
    let code = 0;
    for (const [name, close] of steps) {
      try {
        await close();
      } catch (err) {
        code = 1;
        logger.error({ err, step: name }, 'shutdown step failed');
      }
    }
    logger.info('stopped');
    logger.flush?.();
    process.exit(code);
  };
  process.once('SIGINT', (s) => void stop(s));
  process.once('SIGTERM', (s) => void stop(s));
}
