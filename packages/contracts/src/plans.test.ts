import { describe, expect, it } from 'vitest';
import {
  currencyCatalogue,
  DELETED_DOMAIN_RETENTION_DAYS,
  domainLimit,
  features,
  mailFlowRetentionDays,
  MAX_MAIL_FLOW_RETENTION_DAYS,
  MAX_SCAN_HISTORY_DAYS,
  scanHistoryDays,
  scanHistoryStart,
  planTypes,
  isPaidPlan,
  MANUAL_SCAN_COOLDOWN_MS,
  monthlyPriceMinor,
  planLabel,
  planRules,
  RECENTLY_DELETED_WINDOW_DAYS,
  settingsPriceStrings,
  SIDEBAR_UNKNOWN_PLAN_DOMAIN_LIMIT,
  type Feature,
} from './plans.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

describe('domain limits (spec README decisions, part 1 §9)', () => {
  it.each([
    ['free', 1],
    ['onetime', 1],
    ['basic', 2],
    ['standard', 5],
    ['advanced', 10],
    ['enterprise', 0],
    ['', 0],
    ['FREE', 0],
  ])('%s allows %i', (plan, limit) => {
    expect(domainLimit(plan)).toBe(limit);
  });
  it('the sidebar counter shows 20 for an unknown plan', () => {
    expect(SIDEBAR_UNKNOWN_PLAN_DOMAIN_LIMIT).toBe(20);
  });
});

describe('scan intervals', () => {
  it('free and one-time scan manually; basic 4 h, standard 1 h, advanced 15 min', () => {
    expect(planRules.free.scanIntervalMs).toBeNull();
    expect(planRules.onetime.scanIntervalMs).toBeNull();
    expect(planRules.basic.scanIntervalMs).toBe(4 * HOUR);
    expect(planRules.standard.scanIntervalMs).toBe(HOUR);
    expect(planRules.advanced.scanIntervalMs).toBe(15 * MINUTE);
  });
  it('manual scans of one domain at most once every 5 minutes', () => {
    expect(MANUAL_SCAN_COOLDOWN_MS).toBe(5 * MINUTE);
  });
});

describe('report quotas and cadence', () => {
  it('stores 50, 100 and 200 reports (the plan cards), none on free', () => {
    expect(planRules.basic.reportQuota).toBe(50);
    expect(planRules.standard.reportQuota).toBe(100);
    expect(planRules.advanced.reportQuota).toBe(200);
    expect(planRules.free.reportQuota).toBeNull();
    expect(planRules.onetime.reportQuota).toBeNull();
  });
  it('sends monthly, fortnightly and weekly automated reports', () => {
    expect([planRules.basic, planRules.standard, planRules.advanced].map((r) => r.automatedReports)).toEqual([
      'monthly',
      'fortnightly',
      'weekly',
    ]);
    expect(planRules.free.automatedReports).toBeNull();
  });
});

describe('labels', () => {
  it('uses the interface labels, unknown plans read as Free Plan', () => {
    expect(planLabel('advanced')).toBe('Advanced Monitoring');
    expect(planLabel('standard')).toBe('Standard Monitoring');
    expect(planLabel('basic')).toBe('Basic Monitoring');
    expect(planLabel('onetime')).toBe('One-time Check');
    expect(planLabel('free')).toBe('Free Plan');
    expect(planLabel('mystery')).toBe('Free Plan');
  });
  it('only basic, standard and advanced are paid', () => {
    expect(['free', 'onetime', 'basic', 'standard', 'advanced', 'x'].filter(isPaidPlan)).toEqual(['basic', 'standard', 'advanced']);
  });
});

describe('mail-flow retention', () => {
  it('keeps a quarter on basic, half a year on standard, 13 months on advanced, nothing without a paid plan', () => {
    expect(['free', 'onetime', 'basic', 'standard', 'advanced', 'x'].map(mailFlowRetentionDays)).toEqual([0, 0, 90, 180, 395, 0]);
    expect(Math.max(...planTypes.map(mailFlowRetentionDays))).toBe(MAX_MAIL_FLOW_RETENTION_DAYS);
  });
});

describe('scan history per plan', () => {
  it('shows a quarter on basic, half a year on standard, 13 months on advanced, none without history', () => {
    expect(['free', 'onetime', 'basic', 'standard', 'advanced', 'x'].map(scanHistoryDays)).toEqual([0, 0, 90, 180, 395, 0]);
    expect(Math.max(...planTypes.map(scanHistoryDays))).toBe(MAX_SCAN_HISTORY_DAYS);
    for (const plan of planTypes) expect(scanHistoryDays(plan) > 0).toBe(features.history(plan));
  });

  it('starts the window that many days before now', () => {
    const now = new Date('2026-11-27T12:00:00.000Z');
    expect(scanHistoryStart('basic', now).toISOString()).toBe('2026-08-29T12:00:00.000Z');
    expect(scanHistoryStart('free', now).getTime()).toBe(now.getTime());
  });
});

describe('feature gates (spec README decisions)', () => {
  const plans = ['free', 'onetime', 'basic', 'standard', 'advanced', 'unknown'] as const;
  const expected: Record<Feature, readonly boolean[]> = {
    //                      free   onetime basic  standard advanced unknown
    scheduledScans: [false, false, true, true, true, false],
    domainsPage: [false, false, true, true, true, false],
    domainDetail: [false, false, true, true, true, false],
    reports: [false, false, true, true, true, false],
    support: [false, false, true, true, true, false],
    history: [false, false, true, true, true, false],
    billingHistory: [false, false, true, true, true, false],
    paymentMethodUpdate: [false, false, true, true, true, false],
    alertsRecorded: [false, false, true, true, true, false],
    alertEmails: [false, false, true, true, true, false],
    reputation: [false, false, false, true, true, false],
    sslAndDnsChangeAlerts: [false, false, false, true, true, false],
    inboxPlacement: [false, false, false, true, true, false],
    mailFlow: [false, false, true, true, true, false],
    senderRequirements: [false, false, true, true, true, false],
    chatIntegrations: [false, false, false, true, true, false],
    alertsInBell: [false, false, false, false, true, false],
    marketingIntegrations: [false, false, false, false, true, false],
    customWebhooks: [false, false, false, false, true, false],
    prioritySupport: [false, false, false, false, true, false],
  };
  it.each(Object.keys(expected) as Feature[])('%s', (feature) => {
    expect(plans.map((p) => features[feature](p))).toEqual(expected[feature]);
  });
});

describe('retention', () => {
  it('restores for 90 days and lists the last 30', () => {
    expect(DELETED_DOMAIN_RETENTION_DAYS).toBe(90);
    expect(RECENTLY_DELETED_WINDOW_DAYS).toBe(30);
  });
});

describe('prices (part 1 §9)', () => {
  it.each([
    ['AUD', 19, 34.5, 79],
    ['USD', 11, 26, 59],
    ['CAD', 15, 36, 89],
  ] as const)('%s: %d, %d, %d per month', (currency, basic, standard, advanced) => {
    expect(currencyCatalogue[currency].monthly).toEqual({ basic, standard, advanced });
    expect(currencyCatalogue[currency].code).toBe(currency);
  });
  it('converts to minor units without float drift', () => {
    expect(monthlyPriceMinor('standard', 'AUD')).toBe(3450);
    expect(monthlyPriceMinor('basic', 'USD')).toBe(1100);
    expect(monthlyPriceMinor('advanced', 'CAD')).toBe(8900);
  });
  it('settings shows fixed price strings', () => {
    expect(settingsPriceStrings).toEqual({ basic: '$19', standard: '$34.50', advanced: '$79' });
  });
});
