import { sql, type Executor } from '@sendwell/db';
import type { ReputationFactors, ReputationTrend } from '@sendwell/contracts';

/** One row of `domain_reputation_history`. */
export interface ReputationPoint {
  domainId: number;
  scanId: string;
  score: number;
  factors: ReputationFactors;
  trend: ReputationTrend;
  previousScore: number | null;
  calculatedAt: Date;
}

export class ReputationRows {
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

  async insert(entry: ReputationPoint): Promise<void> {
    await this.db
      .insertInto('domainReputationHistory')
      .values({ ...entry, factors: JSON.stringify(entry.factors) })
      .execute();
  }

  /** The point of one day (`daily_for`); false when that day's point was written already. */
  async insertDaily(entry: ReputationPoint & { dailyFor: string }): Promise<boolean> {
    const inserted = await this.db
      .insertInto('domainReputationHistory')
      .values({ ...entry, factors: JSON.stringify(entry.factors), dailyFor: sql<Date>`${entry.dailyFor}::date` })
      .onConflict((oc) => oc.columns(['domainId', 'dailyFor', 'storedMonth']).where('dailyFor', 'is not', null).doNothing())
      .returning('id')
      .executeTakeFirst();
    return inserted !== undefined;
  }
}
