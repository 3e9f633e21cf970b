/**
 * CPU used by the Postgres backends serving one database: their pids from pg_stat_activity, their
 * user + system time from /proc (Postgres runs on this machine), polled every 250 ms so that
 * connections opened during the run are counted from their start. The shared background processes
 * (WAL writer, checkpointer) are not counted: other databases on the server use them too.
 */
import { sql, type Database } from '@sendwell/db';
import { processCpuMs } from '../lib/processes.js';

export class PostgresCpu {
  /** pid → [CPU ms at first sight (0 for a backend that started after start()), last CPU ms seen]. */
  private readonly seen = new Map<number, [number, number]>();
  private timer: NodeJS.Timeout | undefined;
  private started = false;
  private polling: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Database,
    private readonly database: string,
  ) {}

  private async poll(): Promise<void> {
    const { rows } = await sql<{ pid: number }>`select pid from pg_stat_activity where datname = ${this.database} and pid <> pg_backend_pid() and backend_type = 'client backend'`.execute(this.db);
    for (const { pid } of rows) {
      const cpu = processCpuMs(pid);
      if (cpu === 0) continue;
      const known = this.seen.get(pid);
      if (known) known[1] = cpu;
      else this.seen.set(pid, [this.started ? 0 : cpu, cpu]);
    }
  }

  async start(): Promise<void> {
    this.seen.clear();
    this.started = false;
    await this.poll();
    this.started = true;
    this.timer = setInterval(() => {
      this.polling = this.polling.then(() => this.poll()).catch(() => undefined);
    }, 250);
  }

  /** CPU ms the database's backends used since start(). */
  async stop(): Promise<number> {
    clearInterval(this.timer);
    await this.polling;
    await this.poll();
    let total = 0;
    for (const [first, last] of this.seen.values()) total += last - first;
    return total;
  }
}
