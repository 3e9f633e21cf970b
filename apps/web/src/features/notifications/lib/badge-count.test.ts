import { describe, expect, it } from 'vitest';
import { bellBadgeCount, bellBadgeText } from './badge-count';

describe('bell badge', () => {
  it('adds 1 for the free-plan promo until it is dismissed', () => {
    expect(bellBadgeCount({ plan: 'free', unreadLocal: 0, unreadAlerts: 0, promoDismissed: false })).toBe(1);
    expect(bellBadgeCount({ plan: 'free', unreadLocal: 2, unreadAlerts: 0, promoDismissed: true })).toBe(2);
    expect(bellBadgeText({ plan: 'free', unreadLocal: 0, unreadAlerts: 0, promoDismissed: true })).toBeNull();
  });

  it('counts unread alerts for the advanced plan only', () => {
    expect(bellBadgeCount({ plan: 'advanced', unreadLocal: 1, unreadAlerts: 3, promoDismissed: false })).toBe(4);
    expect(bellBadgeCount({ plan: 'standard', unreadLocal: 1, unreadAlerts: 3, promoDismissed: false })).toBe(1);
    expect(bellBadgeCount({ plan: 'basic', unreadLocal: 0, unreadAlerts: 3, promoDismissed: false })).toBe(0);
  });

  it("shows '99+' above 99", () => {
    expect(bellBadgeText({ plan: 'advanced', unreadLocal: 50, unreadAlerts: 49, promoDismissed: false })).toBe('99');
    expect(bellBadgeText({ plan: 'advanced', unreadLocal: 50, unreadAlerts: 50, promoDismissed: false })).toBe('99+');
  });
});
