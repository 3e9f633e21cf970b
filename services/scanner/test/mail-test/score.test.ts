import type { MailTestFinding } from '@sendwell/contracts';
import { describe, expect, it } from 'vitest';
import { scoreOf } from '../../src/mail-test/score.js';

const f = (code: string, points: number, severity: MailTestFinding['severity'] = 'warning'): MailTestFinding => ({
  code,
  group: 'headers',
  severity,
  title: code,
  explanation: code,
  fix: null,
  reference: null,
  points,
});

describe('scoreOf', () => {
  it('is 10 without findings', () => {
    expect(scoreOf([])).toEqual({ value: 10, deductions: [] });
  });

  it('takes each finding’s points off 10 and lists them, information left out', () => {
    expect(scoreOf([f('DATE_MISSING', 1, 'error'), f('PRECEDENCE_BULK', 0, 'info'), f('HTML_WITHOUT_TEXT', 0.5)])).toEqual({
      value: 8.5,
      deductions: [
        { code: 'DATE_MISSING', points: 1 },
        { code: 'HTML_WITHOUT_TEXT', points: 0.5 },
      ],
    });
  });

  it('keeps one exact decimal where floating point would not', () => {
    // 0.1 + 0.2 is 0.30000000000000004 in floating point.
    expect(scoreOf([f('A', 0.1), f('B', 0.2)]).value).toBe(9.7);
    expect(scoreOf([f('A', 1.5), f('B', 1.5), f('C', 0.5)]).value).toBe(6.5);
  });

  it('never goes below 0, while the deductions still show every finding', () => {
    const findings = ['A', 'B', 'C', 'D', 'E', 'F'].map((code) => f(code, 2, 'error'));
    const score = scoreOf(findings);
    expect(score.value).toBe(0);
    expect(score.deductions).toHaveLength(6);
  });
});
