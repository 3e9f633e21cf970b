import { checkTypes, type CheckStatus, type CheckType } from '@sendwell/contracts';
import { describe, expect, it } from 'vitest';
import type { CheckResult } from '../checks/types.js';
import type { DnsSnapshot } from '@sendwell/contracts';
import type { ScanChecks } from '../scoring/reputation.js';
import { certificateExpiry, decideAlerts, sslThresholdReached, type AlertInput, type PreviousScan } from './alert-rules.js';

const NOW = new Date('2026-11-21T00:00:00Z');

function result(type: CheckType, status: CheckStatus, details: Record<string, unknown> = {}, findings: CheckResult['details']['findings'] = []): CheckResult {
  return { type, status, value: null, message: `${type} is ${status}.`, recommendation: null, details: { ...details, findings } };
}

function checks(overrides: Partial<ScanChecks> = {}): ScanChecks {
  const all = Object.fromEntries(checkTypes.map((t) => [t, result(t, 'valid')])) as ScanChecks;
  all.ssl_certificate = result('ssl_certificate', 'valid', { expiresAt: '2027-06-01T00:00:00.000Z', daysRemaining: 192 });
  all.blacklist = result('blacklist', 'valid', { sites: [{ name: 'Zen', zone: 'zen.example', status: 'clean' }], allIpResults: [] });
  all.dkim = result('dkim', 'valid', { records: [{ selector: 's1', record: 'v=DKIM1; p=AAA' }] });
  return { ...all, ...overrides };
}

const snapshot: DnsSnapshot = {
  takenAt: NOW.toISOString(),
  a: ['192.0.2.1'],
  aaaa: [],
  mx: [{ exchange: 'mx.example.com', priority: 10, ips: ['192.0.2.25'] }],
  ns: ['ns1.example.com', 'ns2.example.com'],
  txt: ['v=spf1 mx -all'],
  spfRecord: 'v=spf1 mx -all',
  dmarcRecord: 'v=DMARC1; p=reject',
  failed: [],
};

function previousOf(c: ScanChecks, snap: DnsSnapshot = snapshot): PreviousScan {
  return { snapshot: snap, checks: Object.fromEntries(Object.values(c).map((r) => [r.type, { status: r.status, details: r.details }])) };
}

function input(overrides: Partial<AlertInput> = {}): AlertInput {
  return {
    domain: 'example.com',
    plan: 'standard',
    checks: checks(),
    snapshot,
    previous: previousOf(checks()),
    status: { before: 'healthy', after: 'healthy' },
    score: { before: 95, after: 95 },
    openAlerts: [],
    now: NOW,
    ...overrides,
  };
}

const listedOn = (ip: string) =>
  result('blacklist', 'error', {
    sites: [{ name: 'Zen', zone: 'zen.example', status: 'listed' }],
    allIpResults: [{ ip, clean: false, listedServices: [{ service: 'Zen', zone: 'zen.example', removalUrl: 'https://zen.example/remove' }] }],
  });

describe('alert decisions', () => {
  it('raises nothing for a domain that stayed healthy, and nothing at all for unpaid plans', () => {
    expect(decideAlerts(input())).toEqual({ raise: [], resolve: [] });
    expect(decideAlerts(input({ plan: 'free', checks: checks({ blacklist: listedOn('192.0.2.25') }) }))).toEqual({ raise: [], resolve: [] });
  });

  it('raises a listing once per list and address, and resolves it when delisted', () => {
    const listed = decideAlerts(input({ plan: 'basic', checks: checks({ blacklist: listedOn('192.0.2.25') }) }));
    expect(listed.raise).toEqual([
      expect.objectContaining({ type: 'blacklist_listed', severity: 'high', conditionKey: 'blacklist:zen.example:192.0.2.25', details: expect.objectContaining({ list: 'Zen', target: '192.0.2.25' }) }),
    ]);
    const open = [{ id: 7, conditionKey: 'blacklist:zen.example:192.0.2.25' }];
    expect(decideAlerts(input({ checks: checks({ blacklist: listedOn('192.0.2.25') }), openAlerts: open }))).toEqual({ raise: [], resolve: [] });
    expect(decideAlerts(input({ openAlerts: open })).resolve).toEqual([7]);
    // A list that did not answer this time neither confirms nor clears the listing; nor does an unknown check.
    const unanswered = result('blacklist', 'warning', { sites: [{ name: 'Zen', zone: 'zen.example', status: 'unknown' }], allIpResults: [] });
    expect(decideAlerts(input({ checks: checks({ blacklist: unanswered }), openAlerts: open })).resolve).toEqual([]);
    expect(decideAlerts(input({ checks: checks({ blacklist: result('blacklist', 'unknown') }), openAlerts: open })).resolve).toEqual([]);
  });

  it('raises a broken record on the transition only, and resolves it when fixed', () => {
    const broken = checks({ spf: result('spf', 'missing'), dmarc: result('dmarc', 'error') });
    const raised = decideAlerts(input({ checks: broken }));
    expect(raised.raise.map((a) => [a.type, a.conditionKey])).toEqual([
      ['spf_broken', 'record:spf'],
      ['dmarc_missing', 'record:dmarc'],
    ]);
    expect(raised.raise[0]?.title).toBe('SPF record missing for example.com');
    // Already broken at the previous scan (or the first scan of the domain): nothing disappeared now.
    expect(decideAlerts(input({ checks: broken, previous: previousOf(broken) })).raise).toEqual([]);
    expect(decideAlerts(input({ checks: broken, previous: null })).raise).toEqual([]);
    const open = [{ id: 3, conditionKey: 'record:spf' }];
    expect(decideAlerts(input({ checks: broken, previous: previousOf(broken), openAlerts: open })).resolve).toEqual([]);
    expect(decideAlerts(input({ openAlerts: open })).resolve).toEqual([3]);
  });

  it('raises SSL security findings and expiry thresholds for standard and above, resolving them on renewal', () => {
    const expired = result('ssl_certificate', 'error', { expiresAt: '2026-11-20T00:00:00.000Z', daysRemaining: -1 }, [
      { code: 'SSL_EXPIRED', severity: 'error', message: 'The certificate has expired.' },
    ]);
    expect(decideAlerts(input({ checks: checks({ ssl_certificate: expired }) })).raise).toEqual([
      expect.objectContaining({ type: 'ssl_security_issue', severity: 'critical', conditionKey: 'ssl:SSL_EXPIRED' }),
    ]);
    expect(decideAlerts(input({ plan: 'basic', checks: checks({ ssl_certificate: expired }) })).raise).toEqual([]);

    const expiring = (days: number) => result('ssl_certificate', 'warning', { expiresAt: '2026-12-01T00:00:00.000Z', daysRemaining: days });
    const at10 = decideAlerts(input({ checks: checks({ ssl_certificate: expiring(10) }) })).raise;
    expect(at10).toEqual([expect.objectContaining({ type: 'ssl_expiring', severity: 'high', conditionKey: 'ssl_expiring:2026-12-01T00:00:00.000Z:14' })]);
    const open14 = [{ id: 9, conditionKey: 'ssl_expiring:2026-12-01T00:00:00.000Z:14' }];
    expect(decideAlerts(input({ checks: checks({ ssl_certificate: expiring(9) }), openAlerts: open14 })).raise).toEqual([]);
    expect(decideAlerts(input({ checks: checks({ ssl_certificate: expiring(1) }), openAlerts: open14 })).raise).toEqual([
      expect.objectContaining({ severity: 'critical', details: expect.objectContaining({ threshold: 1 }) }),
    ]);
    // Renewed: the certificate served now expires later, so the old one's reminders are resolved.
    expect(decideAlerts(input({ openAlerts: [...open14, { id: 10, conditionKey: 'ssl:SSL_EXPIRED' }] })).resolve).toEqual([9, 10]);
  });

  it('raises one DNS change alert with every semantic difference, standard and above', () => {
    const changed = { ...snapshot, dmarcRecord: 'v=DMARC1; p=none', mx: [{ exchange: 'mx9.example.net', priority: 10, ips: ['198.51.100.9'] }] };
    const dkimGone = checks({ dkim: result('dkim', 'valid', { records: [] }) });
    const [alert] = decideAlerts(input({ snapshot: changed, checks: dkimGone })).raise;
    expect(alert).toMatchObject({ type: 'dns_change', severity: 'high', conditionKey: null });
    expect(alert?.title).toBe('example.com: DMARC policy downgraded from reject to none and 3 more DNS changes');
    expect(alert?.message).toContain('DKIM selector s1 removed');
    expect(alert?.message).toContain('MX mx9.example.net (priority 10) added');
    expect(decideAlerts(input({ plan: 'basic', snapshot: changed })).raise).toEqual([]);
    expect(decideAlerts(input({ snapshot: changed, previous: null })).raise).toEqual([]);
  });

  it('raises a status change when the domain status or the reputation label changes', () => {
    expect(decideAlerts(input({ plan: 'basic', status: { before: 'healthy', after: 'critical' } })).raise).toEqual([
      expect.objectContaining({ type: 'status_change', severity: 'critical', title: 'example.com is now critical (it was healthy)' }),
    ]);
    expect(decideAlerts(input({ score: { before: 85, after: 70 } })).raise).toEqual([
      expect.objectContaining({ type: 'status_change', severity: 'medium', title: "example.com's reputation fell from Excellent to Good (85 → 70)" }),
    ]);
    expect(decideAlerts(input({ status: { before: 'critical', after: 'healthy' } })).raise[0]?.severity).toBe('low');
    expect(decideAlerts(input({ status: { before: 'pending', after: 'warning' } })).raise).toEqual([]);
    expect(decideAlerts(input({ score: { before: 85, after: 81 } })).raise).toEqual([]);
  });
});

describe('ssl expiry', () => {
  it('picks the tightest threshold reached', () => {
    expect([45, 31, 30, 15, 14, 7, 2, 1, 0, -1].map(sslThresholdReached)).toEqual([null, null, 30, 30, 14, 7, 7, 1, 1, null]);
  });

  it('reads the expiry from the SSL check, computing days when the check gave none', () => {
    const ssl = result('ssl_certificate', 'warning', { expiresAt: '2026-12-01T00:00:00Z' });
    expect(certificateExpiry(ssl, NOW)).toEqual({ expiresAt: '2026-12-01T00:00:00.000Z', daysRemaining: 10 });
    expect(certificateExpiry(result('ssl_certificate', 'error'), NOW)).toBeNull();
  });
});
