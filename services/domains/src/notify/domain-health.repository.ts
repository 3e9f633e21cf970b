import { sql, type Executor } from '@sendwell/db';
import type { DomainHealth } from '../integrations/marketing-sync.js';

/** A user's monitored domains with their status and latest reputation score, for marketing platforms. */
export class DomainHealthRepository {
  constructor(private readonly db: Executor) {}

  async forUser(userId: number): Promise<DomainHealth[]> {
    const rows = await this.db
      .selectFrom('domains')
      .leftJoinLateral(
        (eb) =>
          eb
            .selectFrom('domainReputationHistory')
            .select('score')
            .whereRef('domainReputationHistory.domainId', '=', 'domains.id')
            .orderBy('calculatedAt', 'desc')
            .orderBy('id', 'desc')
            .limit(1)
            .as('latest'),
        (join) => join.onTrue(),
      )
      .select(['domains.name', 'domains.status', sql<number | null>`latest.score`.as('score')])
      .where('domains.userId', '=', userId)
      .where('domains.isDeleted', '=', false)
      .orderBy('domains.name')
      .execute();
    return rows.map((r) => ({ name: r.name, status: r.status, score: r.score }));
  }
}
