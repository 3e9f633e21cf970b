import { reputationFactorsSchema, reputationTrendSchema, type Reputation } from '@sendwell/contracts';
import type { ReputationRow } from './reputation.repository.js';
import { toIso } from '../shared/time.js';
import { knownOr } from '../shared/known-value.js';

const toTrend = knownOr(reputationTrendSchema, 'stable');

const clampScore = (n: number) => Math.max(0, Math.min(100, Math.round(n)));

/** The latest history row as the reputation card reads it; factors the contracts cannot read yield null. */
export function toReputationDto(row: ReputationRow): Reputation | null {
  const factors = reputationFactorsSchema.safeParse(row.factors);
  if (!factors.success) return null;
  return {
    domainId: row.domainId,
    score: clampScore(row.score),
    trend: toTrend(row.trend),
    previousScore: row.previousScore === null ? null : clampScore(row.previousScore),
    calculatedAt: toIso(row.calculatedAt),
    factors: factors.data,
  };
}
