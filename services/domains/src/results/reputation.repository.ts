import type { DomainReputationHistory, Selectable, Executor } from '@sendwell/db';

export type ReputationRow = Pick<Selectable<DomainReputationHistory>, 'domainId' | 'score' | 'trend' | 'previousScore' | 'factors' | 'calculatedAt'>;

export class ReputationRepository {
  constructor(private readonly db: Executor) {}

  latest(domainId: number): Promise<ReputationRow | undefined> {
    return this.db
      .selectFrom('domainReputationHistory')
      .select(['domainId', 'score', 'trend', 'previousScore', 'factors', 'calculatedAt'])
      .where('domainId', '=', domainId)
      .orderBy('calculatedAt', 'desc')
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
  }

  /** The `limit` most recent rows, oldest first (the chart reads left to right). */
  async recent(domainId: number, limit: number): Promise<ReputationRow[]> {
    const rows = await this.db
      .selectFrom('domainReputationHistory')
      .select(['domainId', 'score', 'trend', 'previousScore', 'factors', 'calculatedAt'])
      .where('domainId', '=', domainId)
      .orderBy('calculatedAt', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
    return rows.reverse();
  }
}
