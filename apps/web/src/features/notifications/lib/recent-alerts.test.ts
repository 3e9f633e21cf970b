import { describe, expect, it } from 'vitest';
import { isRecentAlert, splitRecentAlerts } from './recent-alerts';

const now = Date.parse('2026-11-27T12:00:00.000Z');
const hoursAgo = (h: number) => new Date(now - h * 3_600_000).toISOString();

describe('recent alerts (part 1 §4: recent within 24 h)', () => {
  it('counts an alert as recent up to and including 24 hours old', () => {
    expect(isRecentAlert(hoursAgo(0), now)).toBe(true);
    expect(isRecentAlert(hoursAgo(23.99), now)).toBe(true);
    expect(isRecentAlert(hoursAgo(24), now)).toBe(true);
    expect(isRecentAlert(new Date(now - 24 * 3_600_000 - 1).toISOString(), now)).toBe(false);
    expect(isRecentAlert(hoursAgo(72), now)).toBe(false);
  });

  it('takes a time ahead of the clock as recent and an unreadable one as not', () => {
    expect(isRecentAlert(hoursAgo(-1), now)).toBe(true);
    expect(isRecentAlert('not a date', now)).toBe(false);
  });

  it('splits the newest-first list without reordering it', () => {
    const alerts = [hoursAgo(1), hoursAgo(5), hoursAgo(25), hoursAgo(48)].map((createdAt, id) => ({ id, createdAt }));
    const { recent, earlier } = splitRecentAlerts(alerts, now);
    expect(recent.map((a) => a.id)).toEqual([0, 1]);
    expect(earlier.map((a) => a.id)).toEqual([2, 3]);
  });
});
