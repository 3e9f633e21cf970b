import { describe, expect, it } from 'vitest';
import { countsText, sourceAction } from './sender-requirements-display';

const targets = { inboxPlacement: '/inbox-placement', subscription: '/subscription', mailFlowAnchor: 'mail-flow' };
const requirements = (n: number) => Array.from({ length: n }, () => ({}) as never);

describe('countsText', () => {
  it('counts met of all, then names only what is not met', () => {
    expect(countsText({ counts: { met: 6, unmet: 2, unknown: 0, not_measurable: 1 }, requirements: requirements(9) })).toEqual({ headline: '6 of 9 met', rest: ['2 unmet', '1 only the providers can see'] });
    expect(countsText({ counts: { met: 8, unmet: 0, unknown: 0, not_measurable: 1 }, requirements: requirements(9) }).rest).toEqual(['1 only the providers can see']);
  });
});

describe('sourceAction', () => {
  it('sends a source the plan lacks to the plans, whatever it is', () => {
    for (const source of ['dns', 'mail_flow', 'mail_test'] as const) expect(sourceAction(source, 'plan', targets).link).toEqual({ label: 'View Subscription Plans', to: '/subscription', kind: 'route' });
  });

  it('says where to get evidence a source has not given yet', () => {
    expect(sourceAction('mail_test', 'none', targets).link).toEqual({ label: 'Send a test message from Inbox Testing', to: '/inbox-placement', kind: 'route' });
    expect(sourceAction('mail_flow', 'none', targets).link).toEqual({ label: 'Publish the report address in Mail flow', to: '#mail-flow', kind: 'anchor' });
    expect(sourceAction('dns', 'none', targets)).toEqual({ text: 'Run one with Scan now at the top of this page.', link: null });
  });
});
