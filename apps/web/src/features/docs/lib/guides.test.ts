import { REPUTATION_PART_WEIGHTS, REPUTATION_WEIGHTS, planRules } from '@sendwell/contracts';
import { describe, expect, it } from 'vitest';
import { filterGuides, guides } from './guides';

const text = (id: string) => JSON.stringify(guides.find((g) => g.id === id)?.blocks);

describe('documentation guides', () => {
  it('state the scoring rules the contracts hold', () => {
    const score = text('reputation-score');
    expect(score).toContain(`email authentication (${REPUTATION_WEIGHTS.emailAuthentication} points)`);
    for (const points of Object.values(REPUTATION_PART_WEIGHTS)) expect(score).toContain(`"${points}"`);
    expect(score).toContain('60 %'); // a warning earns CHECK_STATUS_FACTOR.warning
    expect(score).toContain('quarantine 85 %');
  });

  it('state the plans the contracts hold', () => {
    expect(text('reports')).toContain(`"${planRules.advanced.reportQuota}"`);
    expect(text('how-monitoring-works')).toContain('every 15 min');
  });

  it('filter by category and by every word of a search', () => {
    expect(filterGuides(guides, 'scoring', '').map((g) => g.category)).toEqual(['scoring', 'scoring']);
    expect(filterGuides(guides, 'all', 'DMARC quarantine').map((g) => g.id)).toContain('dmarc');
    expect(filterGuides(guides, 'reports', 'DMARC quarantine')).toEqual([]);
    expect(filterGuides(guides, 'all', 'no-such-word-anywhere')).toEqual([]);
    expect(filterGuides(guides, 'all', '   ')).toHaveLength(guides.length);
  });
});
