import { describe, expect, it } from 'vitest';
import { historyRunSummary, monthLabel, poolHealthDisplay, uptimeText } from './format';

describe('uptimeText', () => {
  it('writes days, hours and minutes', () => {
    expect(uptimeText(3 * 86_400 + 4 * 3_600 + 12 * 60 + 59)).toBe('3d 4h 12m');
    expect(uptimeText(2 * 3_600 + 60)).toBe('2h 1m');
    expect(uptimeText(86_400)).toBe('1d 0h 0m');
    expect(uptimeText(30)).toBe('0m');
  });
});

describe('poolHealthDisplay', () => {
  it('names the three known healths and reads anything else as Unknown', () => {
    expect(['healthy', 'warning', 'critical', 'odd'].map((h) => poolHealthDisplay(h).label)).toEqual(['Healthy', 'Warning', 'Critical', 'Unknown']);
  });
});

describe('the scan history card', () => {
  const run = { at: '2026-11-27T03:45:00.000Z', error: null, created: ['2027-01-01'], dropped: [], carriedScans: 0, carriedScores: 0, dropMs: 0 };

  it('names a month in UTC', () => {
    expect(monthLabel('2026-11-01')).toBe('Nov 2026');
  });

  it('says what a run created, dropped and carried forward, or why it failed', () => {
    expect(historyRunSummary(run)).toBe('1 month created, none dropped');
    expect(historyRunSummary({ ...run, created: [], dropped: ['2025-09-01', '2025-10-01'], dropMs: 41.6, carriedScans: 3, carriedScores: 2 })).toBe(
      '0 months created, dropped Sep 2025, Oct 2025 in 42 ms, 3 last scans and 2 scores carried forward',
    );
    expect(historyRunSummary({ at: run.at, error: 'could not obtain lock' })).toBe('could not obtain lock');
  });
});
