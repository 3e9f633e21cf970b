import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import * as contracts from '../index.js';
import {
  ADMIN_ONLY_MESSAGE,
  cancelSubscriptionAnswer,
  createDomainBody,
  createSubscriptionAnswer,
  createSubscriptionBody,
  domainHistoryAnswer,
  HISTORY_PAGE_MAX,
  historyDaysAnswer,
  historyDaysQuery,
  historyQuery,
  domainIdParams,
  domainLimitMessage,
  domainNameParams,
  domainScanParams,
  domainRemovedMessage,
  domainRestoredMessage,
  emailVerifyAnswer,
  FREE_DOMAIN_LIMIT_MESSAGE,
  generateReportsBody,
  lastScanAnswer,
  listAlertsQuery,
  listDeletedDomainsAnswer,
  listDomainsAnswer,
  markAlertReadParams,
  NO_DOMAINS_FOR_REPORTS,
  paymentMethodAnswer,
  reportIdParams,
  reputationAnswer,
  sampleDomainAnswer,
  scanCooldownMessage,
  scanDomainAnswer,
  scanIdParams,
  serverStatsAnswer,
  updatePaymentMethodBody,
  updateSubscriptionBody,
  billingHistoryAnswer,
  emailVerificationReasons,
  listReportsAnswer,
} from '../index.js';

const T = '2025-06-15T12:00:00.000Z';
const SCAN_ID = '8f14e45f-ceea-4e7a-9c1b-1b2f1d6f0c11';
const domain = {
  id: 1,
  userId: 7,
  name: 'example.com',
  status: 'healthy',
  lastScan: T,
  scanCount: 3,
  hasDetailedReport: false,
  metadata: { dkimSelectors: ['google'], note: 'kept' },
  isDeleted: false,
  deletedAt: null,
  nextScanAt: null,
  scanPaused: false,
  createdAt: T,
  updatedAt: T,
};

const firstMessage = (schema: z.ZodType, input: unknown) => {
  const r = schema.safeParse(input);
  return r.success ? null : r.error.issues[0]?.message;
};

describe('params', () => {
  it('numeric ids from strings; anything else is an invalid id', () => {
    expect(domainIdParams.parse({ id: '12' })).toEqual({ id: 12 });
    expect(reportIdParams.parse({ id: '3' })).toEqual({ id: 3 });
    expect(markAlertReadParams.parse({ id: '9' })).toEqual({ id: 9 });
    for (const id of ['abc', '0', '-1', '1.5']) expect(firstMessage(domainIdParams, { id }), id).toBe('Invalid id');
  });
  it('ids stay within Postgres integer: 2147483647 is the largest, anything beyond is an invalid id', () => {
    expect(domainIdParams.parse({ id: '2147483647' })).toEqual({ id: 2147483647 });
    for (const id of ['2147483648', '99999999999', '9'.repeat(400), '1e3', '0x10', ' 7', '+7', '', '٣']) {
      expect(firstMessage(domainIdParams, { id }), id).toBe('Invalid id');
      expect(firstMessage(markAlertReadParams, { id }), id).toBe('Invalid id');
      expect(firstMessage(reportIdParams, { id }), id).toBe('Invalid id');
    }
    expect(firstMessage(domainScanParams, { id: '2147483648', scanId: SCAN_ID })).toBe('Invalid id');
    expect(firstMessage(domainIdParams, { id: ['1', '2'] })).toBe('Invalid id');
    expect(firstMessage(generateReportsBody, { domains: [{ id: 2147483648 }] })).toBe('Invalid id');
  });
  it('scan ids are uuids', () => {
    expect(scanIdParams.parse({ scanId: SCAN_ID })).toEqual({ scanId: SCAN_ID });
    expect(firstMessage(scanIdParams, { scanId: '12' })).toBe('Invalid scan id');
  });
  it('domain names are normalised like the add form', () => {
    expect(domainNameParams.parse({ domainName: 'Example.COM' })).toEqual({ domainName: 'example.com' });
    expect(domainNameParams.safeParse({ domainName: 'bad_name' }).success).toBe(false);
  });
  it('alerts query: defaults and bounds', () => {
    expect(listAlertsQuery.parse({})).toEqual({ unreadOnly: false, limit: 50 });
    expect(listAlertsQuery.parse({ unreadOnly: 'true', limit: '5' })).toEqual({ unreadOnly: true, limit: 5 });
    expect(firstMessage(listAlertsQuery, { limit: '0' })).toBe('Invalid limit');
    expect(firstMessage(listAlertsQuery, { limit: '101' })).toBe('Invalid limit');
  });
});

describe('domain answers', () => {
  it('a domain keeps unknown metadata keys', () => {
    expect(listDomainsAnswer.parse([domain])[0]?.metadata).toEqual({ dkimSelectors: ['google'], note: 'kept' });
  });
  it('deleted list', () => {
    expect(
      listDeletedDomainsAnswer.safeParse([
        { id: 1, name: 'a.com', status: 'warning', scanCount: 0, lastScan: null, deletedAt: T, restorableUntil: T },
      ]).success,
    ).toBe(true);
  });
  it('scan answer', () => {
    expect(scanDomainAnswer.safeParse({ scanId: SCAN_ID, domainId: 1, status: 'queued', message: 'ok' }).success).toBe(true);
    expect(scanDomainAnswer.safeParse({ scanId: 'x', domainId: 1, status: 'queued', message: 'ok' }).success).toBe(false);
  });
  it('reputation may be null before the first score', () => {
    expect(reputationAnswer.parse(null)).toBeNull();
    const rep = {
      domainId: 1,
      score: 82,
      trend: 'improving',
      previousScore: 70,
      calculatedAt: T,
      factors: {
        weightedScores: { emailAuthentication: 35, securityDeliverability: 30, configurationHealth: 17 },
        securityDeliverability: { blacklist: { score: 10, status: 'clean' } },
      },
    };
    expect(reputationAnswer.safeParse(rep).success).toBe(true);
    const over = { ...rep, factors: { weightedScores: { ...rep.factors.weightedScores, emailAuthentication: 41 } } };
    expect(reputationAnswer.safeParse(over).success).toBe(false);
  });
  it('history: active with scans and deleted without', () => {
    expect(
      domainHistoryAnswer.safeParse([
        {
          id: 1,
          name: 'a.com',
          status: 'healthy',
          scanCount: 1,
          lastScan: T,
          isDeleted: false,
          deletedAt: null,
          scans: [
            {
              id: SCAN_ID,
              status: 'completed',
              createdAt: T,
              checkCount: 6,
              passedCount: 5,
              health: 'warning',
              overallStatus: 'warning',
              checks: { spf: 'valid', dmarc: 'warning' },
              score: 82,
              dnsChanges: ['MX changed'],
            },
          ],
          nextCursor: 'older',
        },
        { id: 2, name: 'b.com', status: 'pending', scanCount: 0, lastScan: null, isDeleted: true, deletedAt: T, scans: [], nextCursor: null },
      ]).success,
    ).toBe(true);
  });
  it('history query: a page of one domain, bounded, with a window in order', () => {
    expect(historyQuery.parse({ domainId: '7', limit: '50', before: 'abc' })).toEqual({ domainId: 7, limit: 50, before: 'abc' });
    expect(historyQuery.safeParse({ limit: String(HISTORY_PAGE_MAX + 1) }).success).toBe(false);
    expect(historyQuery.safeParse({ limit: '0' }).success).toBe(false);
    expect(historyQuery.safeParse({ domainId: 'x' }).success).toBe(false);
    expect(historyQuery.safeParse({ from: '2026-11-02T00:00:00Z', to: '2026-11-01T00:00:00Z' }).success).toBe(false);
  });
  it('history days: a window of at most HISTORY_DAYS_MAX days, and the answer', () => {
    expect(historyDaysQuery.safeParse({ from: '2026-01-01', to: '2026-12-31' }).success).toBe(true);
    expect(historyDaysQuery.safeParse({ from: '2025-01-01', to: '2026-12-31' }).success).toBe(false);
    expect(historyDaysQuery.safeParse({ from: '2026-12-31', to: '2026-01-01' }).success).toBe(false);
    expect(
      historyDaysAnswer.safeParse({ from: '2026-11-01', to: '2026-11-02', days: [{ day: '2026-11-01', scans: 96, health: 'healthy', overallStatus: 'healthy', score: 88 }] }).success,
    ).toBe(true);
  });
  it('last-scan summary', () => {
    expect(
      lastScanAnswer.safeParse({
        domainName: 'a.com',
        domainId: 1,
        status: 'warning',
        scanDate: T,
        scanCount: 4,
        isDeletedDomainSummary: true,
        deletionDate: T,
        summary: { note: 'Detailed scan records are not kept for deleted domains.', totalScans: 4, lastScanDate: T, domainStatus: 'warning' },
      }).success,
    ).toBe(true);
  });
  it('sample domain: checks null while scanning', () => {
    expect(sampleDomainAnswer.safeParse({ domain: { name: 'a.com', status: 'pending', lastScan: null }, checks: null }).success).toBe(true);
    expect(
      sampleDomainAnswer.safeParse({
        domain: { name: 'a.com', status: 'healthy', lastScan: T },
        checks: [{ type: 'spf', status: 'valid', value: null, message: null }],
      }).success,
    ).toBe(true);
  });
});

describe('domain messages', () => {
  it('the free limit message carries the text the client looks for', () => {
    expect(FREE_DOMAIN_LIMIT_MESSAGE).toBe('Your free plan is limited to 1 domain. Please upgrade to add more domains.');
    expect(domainLimitMessage('free')).toContain('limited to 1 domain');
    expect(domainLimitMessage('onetime')).toBe(FREE_DOMAIN_LIMIT_MESSAGE);
    expect(domainLimitMessage('standard')).toContain('limited to 5 domains');
    expect(domainLimitMessage('mystery')).toBe('Your plan does not include domain monitoring. Please choose a plan to add domains.');
  });
  it('remove and restore texts name the domain', () => {
    expect(domainRemovedMessage('a.com')).toBe('a.com has been removed from monitoring. Data will be retained for 90 days.');
    expect(domainRestoredMessage('a.com')).toBe('a.com has been restored to your active domains');
  });
  it('the cooldown message rounds up to whole minutes', () => {
    expect(scanCooldownMessage(61_000)).toBe('A domain can be scanned manually once every 5 minutes. Please try again in 2 minutes.');
    expect(scanCooldownMessage(1_000)).toBe('A domain can be scanned manually once every 5 minutes. Please try again in 1 minute.');
  });
  it('create body requires a name', () => {
    expect(firstMessage(createDomainBody, {})).toBe('Required');
  });
});

describe('reports', () => {
  it('generate takes whole domain objects and needs an id or a name', () => {
    const parsed = generateReportsBody.parse({ domains: [domain, { name: ' B.com ' }] });
    expect(parsed.type).toBe('full');
    expect(parsed.domains[1]?.name).toBe('b.com');
    expect(firstMessage(generateReportsBody, { domains: [{ status: 'healthy' }] })).toBe('Each domain needs an id or a name');
  });
  it('no domains gives the spec message', () => {
    expect(firstMessage(generateReportsBody, { domains: [] })).toBe(NO_DOMAINS_FOR_REPORTS);
    expect(firstMessage(generateReportsBody, {})).toBe(NO_DOMAINS_FOR_REPORTS);
    expect(NO_DOMAINS_FOR_REPORTS).toBe('No domains available - You need to add domains before generating reports.');
  });
  it('a report carries its data', () => {
    expect(
      listReportsAnswer.safeParse([
        {
          id: 1,
          userId: 1,
          domainId: null,
          type: 'automated',
          status: 'completed',
          data: { domainName: 'a.com', summary: 'All good', pdf: 'JVBERi0=' },
          isPurchased: false,
          purchaseId: null,
          createdAt: T,
        },
      ]).success,
    ).toBe(true);
  });
});

describe('billing', () => {
  it('plans are basic, standard or advanced', () => {
    expect(createSubscriptionBody.parse({ plan: 'standard' })).toEqual({ plan: 'standard' });
    for (const plan of ['free', 'onetime', 'gold']) {
      expect(firstMessage(updateSubscriptionBody, { plan })).toBe('Please choose one of the plans: basic, standard or advanced');
    }
  });
  it('a subscription answers a client secret or a direct update', () => {
    expect(createSubscriptionAnswer.safeParse({ clientSecret: 'pi_1_secret_2' }).success).toBe(true);
    expect(createSubscriptionAnswer.safeParse({ type: 'subscription', subscriptionId: 'sub_1' }).success).toBe(true);
    expect(createSubscriptionAnswer.safeParse({ type: 'other' }).success).toBe(false);
  });
  it('cancel answers the date; payment method may be absent', () => {
    expect(cancelSubscriptionAnswer.safeParse({ message: 'ok', cancelationDate: T }).success).toBe(true);
    expect(paymentMethodAnswer.parse(null)).toBeNull();
    expect(paymentMethodAnswer.safeParse({ brand: 'visa', last4: '4242', expMonth: 12, expYear: 2030 }).success).toBe(true);
  });
  it('payment method ids look like Stripe ids', () => {
    expect(updatePaymentMethodBody.parse({ paymentMethodId: ' pm_123 ' })).toEqual({ paymentMethodId: 'pm_123' });
    expect(firstMessage(updatePaymentMethodBody, { paymentMethodId: 'card_1' })).toBe('Invalid payment method id');
    expect(firstMessage(updatePaymentMethodBody, {})).toBe('Payment method id is required');
  });
  it('invoices keep Stripe spelling', () => {
    expect(
      billingHistoryAnswer.safeParse([
        {
          id: 'in_1',
          number: 'A-0001',
          status: 'paid',
          amount_paid: 3450,
          currency: 'aud',
          created: 1_700_000_000,
          period_start: 1_700_000_000,
          period_end: 1_702_600_000,
          description: null,
          invoice_pdf: 'https://pay.stripe.com/x.pdf',
          hosted_invoice_url: 'https://invoice.stripe.com/x',
        },
      ]).success,
    ).toBe(true);
  });
});

describe('email verification and admin', () => {
  it('every reason maps to a category of the reference card', () => {
    expect(Object.values(emailVerificationReasons).filter((r) => r.category === 'risky').map((r) => r.label)).toEqual([
      'catch-all domain',
      'mailbox full',
      'role-based email',
      'unknown status',
    ]);
    expect(Object.values(emailVerificationReasons).filter((r) => r.category === 'do_not_send').map((r) => r.label)).toEqual([
      'syntax error',
      'has typos',
      'mailbox not found',
      'disposable email',
      'blocked email',
    ]);
    expect(emailVerificationReasons.valid.category).toBe('send_to');
    expect(
      emailVerifyAnswer.safeParse({ email: 'a@b.co', category: 'risky', status: 'catch_all', description: 'x', timestamp: T }).success,
    ).toBe(true);
  });
  it('server stats', () => {
    expect(ADMIN_ONLY_MESSAGE).toBe('Access denied. This page is restricted to system administrators.');
    expect(
      serverStatsAnswer.safeParse({
        database: { activeConnections: 2, maxConnections: 20, connectionPoolHealth: 'healthy', avgQueryTime: 1.5, slowQueries: 0 },
        domains: { activeScans: 1, domainsScannedToday: 10, totalDomains: 40, avgScanTime: 4.2, failedScans: 0 },
        monitoring: { scheduledScans: 30, continuousMonitoringActive: true, alertsLast24h: 2, notificationsSent: 2 },
        users: { totalUsers: 43, activeUsers: 20, premiumUsers: 5 },
        system: { uptime: 3600, cpuUsage: 12, memoryUsage: 40, diskUsage: 55, heapUsedMB: 80, rssUsedMB: 150 },
        services: [{ service: 'auth', pool: { total: 2, idle: 1, waiting: 0, max: 10 }, queries: { count: 5, avgMs: 1.2, slow: 0 }, process: { uptimeSeconds: 60, heapUsedMB: 30, rssMB: 90 }, reachable: true }],
        queues: [{ name: 'scan', waiting: 0, active: 1, delayed: 2, failed: 0 }],
        history: { months: ['2026-11-01', '2026-12-01', '2027-01-01'], keptDays: 395, lastRun: { at: T, error: null, created: [], dropped: ['2025-09-01'], carriedScans: 2, carriedScores: 1, dropMs: 12.5 } },
        gateway: { requestsTotal: 10, requestsPerSecond: 0.5, errorRate: 0, p95Ms: 25 },
        blocklists: [{ zone: 'zen.example', name: 'Example ZEN', kind: 'ip', state: 'degraded', reason: 'lists everything', checkedAt: T, since: T }],
        measuredAt: '2026-11-25T10:00:00.000Z',
      }).success,
    ).toBe(true);
  });
});

describe('every route schema converts to JSON Schema (for the Fastify type provider and docs)', () => {
  const entries: [string, z.ZodType][] = [];
  for (const [name, value] of Object.entries(contracts) as [string, unknown][]) {
    if (value instanceof z.ZodType && /(?:Answer|Body|Params|Query)$/.test(name)) entries.push([name, value]);
  }
  it('finds the route schemas', () => {
    expect(entries.length).toBeGreaterThan(40);
  });
  it.each(entries)('%s', (name, schema) => {
    const io: 'input' | 'output' = name.endsWith('Answer') ? 'output' : 'input';
    expect(() => z.toJSONSchema(schema, { io, unrepresentable: 'any' })).not.toThrow();
  });
});
