import { checkTypes, reputationFactorsSchema, type CheckStatus, type CheckType } from '@sendwell/contracts';
import { describe, expect, it } from 'vitest';
import type { CheckResult } from '../checks/types.js';
import type { DnsSnapshot } from '@sendwell/contracts';
import { computeReputation, withTrend, type ScanChecks } from './reputation.js';

/** Stored check rows as a scan would hand them over (test data, not a check). */
function result(type: CheckType, status: CheckStatus, details: Record<string, unknown> = {}): CheckResult {
  return { type, status, value: null, message: status, recommendation: null, details: { findings: [], ...details } };
}

function checks(overrides: Partial<Record<CheckType, CheckResult>> = {}): ScanChecks {
  const all = Object.fromEntries(checkTypes.map((t) => [t, result(t, t === 'dns_performance' ? 'success' : 'valid')])) as ScanChecks;
  all.dmarc = result('dmarc', 'valid', { policy: 'reject', pct: 100 });
  all.blacklist = result('blacklist', 'valid', { sites: [{ name: 'a', status: 'clean' }], listedIpsCount: 0 });
  return { ...all, ...overrides };
}

function snapshot(overrides: Partial<DnsSnapshot> = {}): DnsSnapshot {
  return {
    takenAt: '2026-11-21T00:00:00.000Z',
    a: ['192.0.2.1'],
    aaaa: [],
    mx: [{ exchange: 'mx.example.com', priority: 10, ips: ['192.0.2.25'] }],
    ns: ['ns1.example.com', 'ns2.example.com'],
    txt: ['v=spf1 mx -all'],
    spfRecord: 'v=spf1 mx -all',
    dmarcRecord: 'v=DMARC1; p=reject',
    failed: [],
    ...overrides,
  };
}

describe('computeReputation', () => {
  it('gives a fully healthy domain 100, split 40/35/25 with the blacklist at 10', () => {
    const { score, factors } = computeReputation(checks(), snapshot());
    expect(score).toBe(100);
    expect(factors.weightedScores).toEqual({ emailAuthentication: 40, securityDeliverability: 35, configurationHealth: 25 });
    expect(factors.securityDeliverability?.blacklist).toMatchObject({ score: 10, status: 'clean' });
    expect(reputationFactorsSchema.parse(factors)).toBeTruthy();
  });

  it('scales DMARC by policy strength: reject > quarantine > none, and pct < 100 weakens it', () => {
    const at = (policy: string, pct = 100) =>
      computeReputation(checks({ dmarc: result('dmarc', 'valid', { policy, pct }) }), snapshot()).factors.weightedScores.emailAuthentication;
    expect(at('reject')).toBe(40);
    expect(at('quarantine')).toBeLessThan(at('reject'));
    expect(at('none')).toBeLessThan(at('quarantine'));
    expect(at('reject', 50)).toBeLessThan(at('reject'));
    expect(at('reject', 50)).toBeGreaterThan(at('none'));
  });

  it('gives nothing for missing SPF, DKIM and DMARC', () => {
    const { factors } = computeReputation(
      checks({ spf: result('spf', 'missing'), dkim: result('dkim', 'missing'), dmarc: result('dmarc', 'missing') }),
      snapshot({ spfRecord: null, dmarcRecord: null }),
    );
    expect(factors.weightedScores.emailAuthentication).toBe(0);
    // Spoofing protection is gone too: no SPF `all`, no DMARC enforcement.
    expect(factors.weightedScores.securityDeliverability).toBe(28);
  });

  it('takes 4 of the 10 blacklist points per listing, and half for an unknown answer', () => {
    const listed = (n: number) =>
      computeReputation(checks({ blacklist: result('blacklist', 'error', { listedIpsCount: n }) }), snapshot()).factors.securityDeliverability?.blacklist;
    expect(listed(1)).toMatchObject({ score: 6, status: 'listed' });
    expect(listed(2)).toMatchObject({ score: 2, status: 'listed' });
    expect(listed(5)).toMatchObject({ score: 0, status: 'listed' });
    const unknown = computeReputation(checks({ blacklist: result('blacklist', 'unknown') }), snapshot()).factors.securityDeliverability?.blacklist;
    expect(unknown).toMatchObject({ score: 5, status: 'unknown' });
  });

  it('grades SSL by status: warning 6 of 10, error 1.5', () => {
    const ssl = (status: CheckStatus) => computeReputation(checks({ ssl_certificate: result('ssl_certificate', status) }), snapshot()).factors.weightedScores.securityDeliverability;
    expect(ssl('valid')).toBe(35);
    expect(ssl('warning')).toBe(31);
    expect(ssl('error')).toBeCloseTo(26.5, 5);
  });

  it('grades configuration: DNS performance, MX present and resolving, at least two name servers', () => {
    const config = (c: Partial<Record<CheckType, CheckResult>>, s: Partial<DnsSnapshot>) => computeReputation(checks(c), snapshot(s)).factors.weightedScores.configurationHealth;
    expect(config({}, {})).toBe(25);
    expect(config({}, { ns: ['ns1.example.com'] })).toBe(23.5);
    expect(config({}, { mx: [] })).toBe(19);
    // A domain that declares it takes no mail is not a broken mail domain.
    expect(config({}, { mx: [], profile: 'parked' })).toBe(25);
    expect(config({}, { mx: [], profile: 'null_mx' })).toBe(25);
    expect(config({}, { mx: [{ exchange: 'mx.example.com', priority: 10, ips: [] }] })).toBe(22);
    expect(config({ dns_performance: result('dns_performance', 'error') }, {})).toBeCloseTo(16.5, 5);
    // A record set that could not be read counts half, not zero: a timeout is not a missing record.
    expect(config({}, { ns: [], failed: ['ns'] })).toBe(23.5);
  });

  it('reads the SPF all qualifier for spoofing protection', () => {
    const spoof = (spfRecord: string) => computeReputation(checks(), snapshot({ spfRecord })).factors.securityDeliverability?.spoofingProtection;
    expect(spoof('v=spf1 mx -all')).toBe(7);
    expect(spoof('v=spf1 mx ~all')).toBe(6.3);
    expect(spoof('v=spf1 mx ?all')).toBe(4.2);
    expect(spoof('v=spf1 mx +all')).toBe(3.5);
    expect(spoof('v=spf1 mx')).toBe(4.2);
  });

  it('scores the mail checks by status within their parts: STARTTLS 3, MTA-STS 2, DANE 1, TLS-RPT 1, BIMI 1, reverse DNS 4', () => {
    const missing = computeReputation(
      checks({ mta_sts: result('mta_sts', 'missing'), tls_rpt: result('tls_rpt', 'missing'), smtp: result('smtp', 'warning'), dane: result('dane', 'missing'), reverse_dns: result('reverse_dns', 'warning') }),
      snapshot(),
    ).factors;
    expect(missing.securityDeliverability).toMatchObject({ smtp: 1.8, mtaSts: 0, dane: 0, tlsRpt: 0 });
    expect(missing.weightedScores.securityDeliverability).toBe(29.8);
    expect(missing.configurationHealth).toMatchObject({ reverseDns: 2.4 });
    expect(missing.weightedScores.configurationHealth).toBe(23.4);
    // Port 25 blocked on our side reads unknown: half, not nothing.
    expect(computeReputation(checks({ smtp: result('smtp', 'unknown') }), snapshot()).factors.securityDeliverability).toMatchObject({ smtp: 1.5 });
  });

  it('stays within 0-100 for the worst scan', () => {
    const worst = Object.fromEntries(checkTypes.map((t) => [t, result(t, 'error')])) as ScanChecks;
    const { score } = computeReputation(worst, snapshot({ a: [], mx: [], ns: [], spfRecord: null, dmarcRecord: null }));
    expect(score).toBeGreaterThanOrEqual(0);
    expect(score).toBeLessThan(20);
  });
});

describe('withTrend', () => {
  const score = (n: number) => ({ score: n, factors: computeReputation(checks(), snapshot()).factors });
  it('is stable without a previous score and within ±4 points', () => {
    expect(withTrend(score(80), null)).toMatchObject({ trend: 'stable', previousScore: null });
    expect(withTrend(score(84), 80).trend).toBe('stable');
    expect(withTrend(score(76), 80).trend).toBe('stable');
  });
  it('is improving or declining from 5 points', () => {
    expect(withTrend(score(85), 80)).toMatchObject({ trend: 'improving', previousScore: 80 });
    expect(withTrend(score(75), 80).trend).toBe('declining');
  });
});
