import type { Executor } from '@sendwell/db';
import type { ReputationFactors, ReputationTrend } from '@sendwell/contracts';

export class ReputationRepository {
  constructor(private readonly db: Executor) {}

  async latestScore(domainId: number): Promise<number | null> {
    const row = await this.db
      .selectFrom('domainReputationHistory')
      .select(['score'])
      .where('domainId', '=', domainId)
      .orderBy('calculatedAt', 'desc')
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
    return row?.score ?? null;
  }

  async insert(entry: {
    domainId: number;
    scanId: string;
    score: number;
    factors: ReputationFactors;
    trend: ReputationTrend;
    previousScore: number | null;
    calculatedAt: Date;
  }): Promise<void> {
    await this.db
      .insertInto('domainReputationHistory')
      .values({ ...entry, factors: JSON.stringify(entry.factors) })
      .execute();
  }
}
