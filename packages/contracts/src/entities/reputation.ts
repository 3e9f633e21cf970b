import { z } from '../zod.js';
import { idSchema, isoDateTime } from '../common.js';
import { REPUTATION_WEIGHTS, BLACKLIST_SCORE_MAX } from './reputation-rules.js';
export { REPUTATION_WEIGHTS, BLACKLIST_SCORE_MAX } from './reputation-rules.js';

export const reputationTrends = ['improving', 'declining', 'stable'] as const;
export const reputationTrendSchema = z.enum(reputationTrends);
export type ReputationTrend = z.infer<typeof reputationTrendSchema>;

const part = (max: number) => z.number().min(0).max(max);

/** Loose: the scoring job may add per-factor detail without a contract change. */
export const reputationFactorsSchema = z.looseObject({
  weightedScores: z.looseObject({
    emailAuthentication: part(REPUTATION_WEIGHTS.emailAuthentication),
    securityDeliverability: part(REPUTATION_WEIGHTS.securityDeliverability),
    configurationHealth: part(REPUTATION_WEIGHTS.configurationHealth),
  }),
  securityDeliverability: z
    .looseObject({
      blacklist: z.looseObject({ score: part(BLACKLIST_SCORE_MAX), status: z.string() }),
    })
    .optional(),
});
export type ReputationFactors = z.infer<typeof reputationFactorsSchema>;

export const reputationScoreSchema = z.number().int().min(0).max(100);

/** The current reputation of a domain (`GET /api/domains/{id}/reputation`). */
export const reputationSchema = z.object({
  domainId: idSchema,
  score: reputationScoreSchema,
  trend: reputationTrendSchema,
  previousScore: reputationScoreSchema.nullable(),
  calculatedAt: isoDateTime,
  factors: reputationFactorsSchema,
});
export type Reputation = z.infer<typeof reputationSchema>;

/** One row of domain_reputation_history. */
export const reputationHistoryEntrySchema = reputationSchema.extend({ id: idSchema });
export type ReputationHistoryEntry = z.infer<typeof reputationHistoryEntrySchema>;
