import { describe, expect, it } from 'vitest';
import {
  clampBlacklistScore,
  deliverabilityInsight,
  insightLabel,
  reputationCardLabel,
  reputationDetailLabel,
  reputationScoreFromParts,
  reputationTrend,
} from './scoring.js';

describe('reputation labels', () => {
  it.each([
    [100, 'Excellent'],
    [80, 'Excellent'],
    [79, 'Good'],
    [60, 'Good'],
    [59, 'Needs Attention'],
    [0, 'Needs Attention'],
  ])('card: %i is %s', (score, label) => {
    expect(reputationCardLabel(score)).toBe(label);
  });
  it.each([
    [80, 'Excellent'],
    [79, 'Good'],
    [60, 'Good'],
    [59, 'Fair'],
    [40, 'Fair'],
    [39, 'Poor'],
    [0, 'Poor'],
  ])('detail: %i is %s', (score, label) => {
    expect(reputationDetailLabel(score)).toBe(label);
  });
});

describe('reputation trend (±5)', () => {
  it.each([
    [75, 70, 'improving'],
    [74, 70, 'stable'],
    [66, 70, 'stable'],
    [65, 70, 'declining'],
    [70, 70, 'stable'],
    [70, null, 'stable'],
    [70, undefined, 'stable'],
    [0, 100, 'declining'],
  ] as const)('%i after %s is %s', (score, previous, trend) => {
    expect(reputationTrend(score, previous)).toBe(trend);
  });
});

describe('reputation score from its parts', () => {
  it('adds 40 + 35 + 25', () => {
    expect(reputationScoreFromParts({ emailAuthentication: 40, securityDeliverability: 35, configurationHealth: 25 })).toBe(100);
    expect(reputationScoreFromParts({ emailAuthentication: 30.4, securityDeliverability: 20, configurationHealth: 10 })).toBe(60);
  });
  it('clamps each part to its weight and ignores nonsense', () => {
    expect(reputationScoreFromParts({ emailAuthentication: 90, securityDeliverability: -5, configurationHealth: Number.NaN })).toBe(40);
    expect(clampBlacklistScore(12)).toBe(10);
    expect(clampBlacklistScore(-1)).toBe(0);
  });
});

describe('deliverability insight (part 2 §9)', () => {
  it('no issues: 100, Good, no projection', () => {
    expect(deliverabilityInsight(['valid', 'valid', 'success', 'unknown'])).toEqual({
      score: 100,
      projectedScore: 100,
      label: 'Good',
      issueCount: 0,
      improvementPercent: 0,
      improvementText: '0%',
    });
  });
  it('one warning: 90, projected 99 (capped), 10%', () => {
    expect(deliverabilityInsight(['warning', 'valid'])).toMatchObject({
      score: 90,
      projectedScore: 99,
      label: 'Good',
      issueCount: 1,
      improvementText: '10%',
    });
  });
  it('warning + error is exactly 70 (no float drift), Needs Attention, 18%', () => {
    expect(deliverabilityInsight(['warning', 'error'])).toMatchObject({
      score: 70,
      projectedScore: 88,
      label: 'Needs Attention',
      issueCount: 2,
      improvementPercent: 18,
      improvementText: '18%',
    });
  });
  it('missing costs 15, case-insensitive', () => {
    expect(deliverabilityInsight(['MISSING']).score).toBe(85);
    expect(deliverabilityInsight(['missing', 'missing', 'missing']).score).toBe(55);
  });
  it('floors at 30', () => {
    const result = deliverabilityInsight(['error', 'error', 'error', 'error', 'missing']);
    expect(result.score).toBe(30);
    expect(result.projectedScore).toBe(48);
    expect(result.label).toBe('Critical');
  });
  it('labels: above 80 Good, above 60 Needs Attention, otherwise Critical', () => {
    expect([81, 80, 61, 60, 30].map(insightLabel)).toEqual(['Good', 'Needs Attention', 'Needs Attention', 'Critical', 'Critical']);
  });
  it('only warning, error and missing count as issues', () => {
    expect(deliverabilityInsight(['failed', 'flagged', 'listed', null, undefined]).issueCount).toBe(0);
  });
});
