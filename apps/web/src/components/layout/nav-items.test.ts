import { describe, expect, it } from 'vitest';
import { visibleNavItems } from './nav-items';

const labels = (planType: string, isAdmin = false) => visibleNavItems({ planType, isAdmin }).map((i) => i.label);

describe('sidebar visibility', () => {
  it('free: no Inbox Testing, Integrations or Billing History', () => {
    expect(labels('free')).toEqual(['Dashboard', 'Reports', 'Domain History', 'Settings', 'Help & Support']);
  });
  it('basic: Billing History but no standard features', () => {
    expect(labels('basic')).toEqual(['Dashboard', 'Reports', 'Domain History', 'Settings', 'Billing History', 'Help & Support']);
  });
  it('standard and advanced: Inbox Testing and Integrations', () => {
    for (const plan of ['standard', 'advanced']) {
      expect(labels(plan)).toEqual(['Dashboard', 'Reports', 'Inbox Testing', 'Integrations', 'Domain History', 'Settings', 'Billing History', 'Help & Support']);
    }
  });
  it('Server Stats for the administrator only', () => {
    expect(labels('free', true)).toContain('Server Stats');
    expect(labels('advanced')).not.toContain('Server Stats');
  });
});
