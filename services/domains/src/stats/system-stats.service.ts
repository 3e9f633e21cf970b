import { QueueName, type QueueStats, type SystemFigures } from '@sendwell/contracts';
import type { Database } from '@sendwell/db';
import type { Queues } from '@sendwell/server-kit';
import { SystemFiguresRepository } from './system-figures.repository.js';

/** The whole system's figures for the administrator: Postgres counts and every BullMQ queue's depth. */
export class SystemStatsService {
  constructor(
    private readonly db: Database,
    private readonly queues: Queues,
  ) {}

  async read(): Promise<SystemFigures> {
    const figures = new SystemFiguresRepository(this.db);
    const [scans, { domains, users }, alerts, queues] = await Promise.all([figures.scans(), figures.domainsAndUsers(), figures.alerts(), this.queueDepths()]);
    return { scans, domains, users, alerts, queues };
  }

  private async queueDepths(): Promise<QueueStats[]> {
    return Promise.all(
      Object.values(QueueName).map(async (name) => {
        const counts = await this.queues[name].getJobCounts('waiting', 'active', 'delayed', 'failed');
        return { name, waiting: counts.waiting ?? 0, active: counts.active ?? 0, delayed: counts.delayed ?? 0, failed: counts.failed ?? 0 };
      }),
    );
  }
}
