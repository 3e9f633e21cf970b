/**
 * Scores and the labels derived from them (part 1 §9, part 2 §4 and §9). Pure, no I/O.
 */
import type { CheckStatus } from './entities/check.js';
import { BLACKLIST_SCORE_MAX, REPUTATION_WEIGHTS, type ReputationTrend } from './entities/reputation.js';

/**
 * The reputation score's parts (part 2 §9's 40/35/25 split, refined): the scanner scores with them and
 * reports compute what fixing a check would gain from them.
 *
 *   email authentication      40 = SPF 13 + DKIM 13 + DMARC 14 (DMARC scaled by policy strength)
 *   security & deliverability 35 = blacklist 10 + SSL certificate 10 + spoofing protection 7
 *                                  + MX STARTTLS 3 + MTA-STS 2 + DANE 1 + TLS-RPT 1 + BIMI 1
 *   configuration health      25 = DNS performance 10 + mail routing (MX) 6 + name servers 3
 *                                  + forward-confirmed reverse DNS 4 + DNSSEC 2
 *
 * A check that does not apply to the domain's profile (a parked or null-MX domain has no mail
 * transport to protect) earns its part in full.
 */
export const REPUTATION_PART_WEIGHTS = {
  spf: 13,
  dkim: 13,
  dmarc: 14,
  blacklist: BLACKLIST_SCORE_MAX,
  ssl: 10,
  spoofingProtection: 7,
  smtp: 3,
  mtaSts: 2,
  dane: 1,
  tlsRpt: 1,
  bimi: 1,
  dnsPerformance: 10,
  mailRouting: 6,
  nameServers: 3,
  reverseDns: 4,
  dnssec: 2,
} as const;

// The parts add up to the weights; a change to one without the other fails here at load.
const sum = (...n: number[]) => n.reduce((a, b) => a + b, 0);
const W = REPUTATION_PART_WEIGHTS;
if (
  sum(W.spf, W.dkim, W.dmarc) !== REPUTATION_WEIGHTS.emailAuthentication ||
  sum(W.blacklist, W.ssl, W.spoofingProtection, W.smtp, W.mtaSts, W.dane, W.tlsRpt, W.bimi) !== REPUTATION_WEIGHTS.securityDeliverability ||
  sum(W.dnsPerformance, W.mailRouting, W.nameServers, W.reverseDns, W.dnssec) !== REPUTATION_WEIGHTS.configurationHealth
) {
  throw new Error('reputation part weights do not add up to REPUTATION_WEIGHTS');
}

/** DMARC policy strength (RFC 7489 §6.3 `p=`): reject blocks spoofed mail, quarantine files it, none only reports. */
export const DMARC_POLICY_FACTOR: Record<string, number> = { reject: 1, quarantine: 0.85, none: 0.5 };

/** Points of the blacklist part (out of 10) lost per list a domain or address is on. */
export const BLACKLIST_POINTS_PER_LISTING = 4;

/** The share of its part a check earns by status; `unknown` (could not tell) earns half. */
export const CHECK_STATUS_FACTOR: Record<CheckStatus, number> = {
  valid: 1,
  success: 1,
  warning: 0.6,
  unknown: 0.5,
  error: 0.15,
  missing: 0,
};

/** Domain cards: 80 or more Excellent, 60 or more Good, lower Needs Attention. */
export function reputationCardLabel(score: number): 'Excellent' | 'Good' | 'Needs Attention' {
  if (score >= 80) return 'Excellent';
  if (score >= 60) return 'Good';
  return 'Needs Attention';
}

/** Detail screens: 80 and above Excellent, 60 Good, 40 Fair, below 40 Poor. */
export function reputationDetailLabel(score: number): 'Excellent' | 'Good' | 'Fair' | 'Poor' {
  if (score >= 80) return 'Excellent';
  if (score >= 60) return 'Good';
  if (score >= 40) return 'Fair';
  return 'Poor';
}

/** A change of this many points or more is a trend. */
export const TREND_THRESHOLD = 5;

/** Improving or declining when the score moved by 5 or more since the previous one; else stable. */
export function reputationTrend(score: number, previousScore: number | null | undefined): ReputationTrend {
  if (previousScore == null) return 'stable';
  const change = score - previousScore;
  if (change >= TREND_THRESHOLD) return 'improving';
  if (change <= -TREND_THRESHOLD) return 'declining';
  return 'stable';
}

export interface WeightedScores {
  emailAuthentication: number;
  securityDeliverability: number;
  configurationHealth: number;
}

/** The 0-100 score from its three weighted parts (40 + 35 + 25), each clamped to its weight. */
export function reputationScoreFromParts(parts: WeightedScores): number {
  const clamp = (v: number, max: number) => Math.min(max, Math.max(0, Number.isFinite(v) ? v : 0));
  const total =
    clamp(parts.emailAuthentication, REPUTATION_WEIGHTS.emailAuthentication) +
    clamp(parts.securityDeliverability, REPUTATION_WEIGHTS.securityDeliverability) +
    clamp(parts.configurationHealth, REPUTATION_WEIGHTS.configurationHealth);
  return Math.round(total);
}

/** The blacklist part of security and deliverability: out of 10. */
export function clampBlacklistScore(score: number): number {
  return Math.min(BLACKLIST_SCORE_MAX, Math.max(0, score));
}

/**
 * Deliverability insight penalties in whole percent (part 2 §9: 0.10, 0.20, 0.15). Kept as integers
 * because 0.1 + 0.2 in floating point would floor 70 down to 69.
 */
export const INSIGHT_PENALTY_PERCENT = { warning: 10, error: 20, missing: 15 } as const;
export const INSIGHT_SCORE_FLOOR = 30;
export const INSIGHT_PROJECTED_GAIN = 18;
export const INSIGHT_PROJECTED_CAP = 99;

export type InsightLabel = 'Good' | 'Needs Attention' | 'Critical';

export interface DeliverabilityInsight {
  score: number;
  /** min(99, score + 18) when any issue exists, else the score itself. */
  projectedScore: number;
  label: InsightLabel;
  issueCount: number;
  /** 18 when more than one issue, 10 for one, 0 for none. */
  improvementPercent: number;
  improvementText: string;
}

/** Above 80 Good, above 60 Needs Attention, otherwise Critical. */
export function insightLabel(score: number): InsightLabel {
  if (score > 80) return 'Good';
  if (score > 60) return 'Needs Attention';
  return 'Critical';
}

/** score = max(30, floor(100 - sum of penalties x 100)); an issue is a warning, error or missing check. */
export function deliverabilityInsight(statuses: ReadonlyArray<string | null | undefined>): DeliverabilityInsight {
  let penalty = 0;
  let issueCount = 0;
  for (const raw of statuses) {
    const status = (raw ?? '').trim().toLowerCase();
    if (status === 'warning' || status === 'error' || status === 'missing') {
      penalty += INSIGHT_PENALTY_PERCENT[status];
      issueCount += 1;
    }
  }
  const score = Math.max(INSIGHT_SCORE_FLOOR, Math.floor(100 - penalty));
  const projectedScore = issueCount > 0 ? Math.min(INSIGHT_PROJECTED_CAP, score + INSIGHT_PROJECTED_GAIN) : score;
  const improvementPercent = issueCount > 1 ? 18 : issueCount === 1 ? 10 : 0;
  return {
    score,
    projectedScore,
    label: insightLabel(score),
    issueCount,
    improvementPercent,
    improvementText: `${improvementPercent}%`,
  };
}
