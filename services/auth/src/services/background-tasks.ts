import type { Logger } from '@sendwell/server-kit';

/**
 * Work a request starts but does not wait for (mail whose outcome must not show in the answer).
 * Failures are logged; `drain()` lets shutdown finish what was started before the pools close.
 */
export class BackgroundTasks {
  private readonly running = new Set<Promise<void>>();

  constructor(private readonly logger: Logger) {}

  run(name: string, task: () => Promise<void>): void {
    const done: Promise<void> = task()
      .catch((err: unknown) => this.logger.error({ err, task: name }, 'background task failed'))
      .finally(() => this.running.delete(done));
    this.running.add(done);
  }

  async drain(): Promise<void> {
    while (this.running.size > 0) await Promise.all([...this.running]);
  }
}
