import { describe, expect, it } from 'vitest';
import { checkRows, summariseChecks } from './display.js';

describe('card rows (part 1 §2)', () => {
  it('lists the six card rows in order', () => {
    expect(checkRows.map((r) => r.title)).toEqual(['SPF Record', 'DKIM', 'DMARC', 'Blacklists', 'SSL Certificate', 'DNS Performance']);
  });
});

describe('scan summaries (part 2 §4)', () => {
  it('critical if any error, failed or flagged; else warning if any warning; else healthy', () => {
    const health = (statuses: Array<string | null>) => summariseChecks(statuses).health;
    expect(health(['valid', 'warning', 'error'])).toBe('critical');
    expect(health(['valid', 'FAILED'])).toBe('critical');
    expect(health(['flagged'])).toBe('critical');
    expect(health(['valid', 'warning', 'missing'])).toBe('warning');
    expect(health(['valid', 'missing', 'unknown'])).toBe('healthy');
    expect(health([])).toBe('healthy');
  });
  it('passed means valid, passed or clean (and the DNS check’s success)', () => {
    expect(summariseChecks(['valid', 'passed', 'clean', 'Valid', 'success']).passedCount).toBe(5);
    expect(summariseChecks(['warning', 'error', 'missing', 'unknown', null]).passedCount).toBe(0);
  });
  it('summarises a group', () => {
    expect(summariseChecks(['valid', 'valid', 'warning', 'success', 'error', 'clean'])).toEqual({
      checkCount: 6,
      passedCount: 4,
      health: 'critical',
      passedText: '4/6 checks passed',
    });
  });
});
