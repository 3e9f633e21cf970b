import { describe, expect, it } from 'vitest';
import { reportFileName } from './entities/report.js';
import { reportCadence, reportPeriod } from './report-schedule.js';

describe('automated report periods', () => {
  it('follows the plan: monthly for basic, fortnightly for standard, weekly for advanced, none otherwise', () => {
    expect(['free', 'onetime', 'basic', 'standard', 'advanced', 'nonsense'].map(reportCadence)).toEqual([null, null, 'monthly', 'fortnightly', 'weekly', null]);
  });

  it('keys a month by its month and a week by its Monday (UTC)', () => {
    expect(reportPeriod('monthly', new Date('2026-12-31T23:59:59Z'))).toEqual({
      cadence: 'monthly',
      key: 'monthly:2026-12',
      start: new Date('2026-12-01T00:00:00Z'),
      end: new Date('2027-01-01T00:00:00Z'),
    });
    expect(reportPeriod('weekly', new Date('2026-11-29T23:00:00Z')).key).toBe('weekly:2026-11-23');
    expect(reportPeriod('weekly', new Date('2026-11-30T00:00:00Z')).key).toBe('weekly:2026-11-30');
  });

  it('splits time into back-to-back fortnights starting on Mondays', () => {
    let at = new Date('2026-01-01T00:00:00Z');
    const first = reportPeriod('fortnightly', at);
    expect(first.start.getUTCDay()).toBe(1);
    for (let i = 0; i < 30; i++) {
      const p = reportPeriod('fortnightly', at);
      expect(p.end.getTime() - p.start.getTime()).toBe(14 * 86_400_000);
      expect(p.start.getTime()).toBeLessThanOrEqual(at.getTime());
      const next = reportPeriod('fortnightly', p.end);
      expect(next.start).toEqual(p.end);
      expect(next.key).not.toBe(p.key);
      at = new Date(p.end.getTime() + 3 * 86_400_000);
    }
  });
});

describe('report file names', () => {
  it('are sendwell-{domain}-{date}.{ext} with nothing a header or a file system would choke on', () => {
    expect(reportFileName('Example.COM', '2026-11-24T23:59:00Z', 'pdf')).toBe('sendwell-example.com-2026-11-24.pdf');
    expect(reportFileName('xn--bcher-kva.example', new Date('2026-01-02T00:00:00Z'), 'text')).toBe('sendwell-xn--bcher-kva.example-2026-01-02.txt');
    expect(reportFileName('a"b/c\\d', '2026-11-24T00:00:00Z', 'html')).toBe('sendwell-a_b_c_d-2026-11-24.html');
  });
});
