import { describe, expect, it } from 'vitest';
import { poolHealthDisplay, uptimeText } from './format';

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
