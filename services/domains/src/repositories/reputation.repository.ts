import type { DomainReputationHistory, Selectable } from '@sendwell/db';
import type { Executor } from './db.js';

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
}
