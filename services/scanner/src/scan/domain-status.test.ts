import { checkTypes, type CheckStatus, type CheckType } from '@sendwell/contracts';
import { describe, expect, it } from 'vitest';
import type { CheckResult } from '../checks/types.js';
import type { ScanChecks } from '../scoring/reputation.js';
import { overallStatus } from './domain-status.js';

const result = (type: CheckType, status: CheckStatus, details: Record<string, unknown> = {}): CheckResult => ({
  type,
  status,
  value: null,
  message: status,
  recommendation: null,
  details: { findings: [], ...details },
});
const all = (overrides: Partial<Record<CheckType, CheckResult>> = {}) =>
  ({ ...Object.fromEntries(checkTypes.map((t) => [t, result(t, 'valid')])), ...overrides }) as ScanChecks;

describe('overallStatus', () => {
  it('is healthy only when every check passed; a check that could not tell makes it a warning', () => {
    expect(overallStatus(all())).toBe('healthy');
    expect(overallStatus(all({ dns_performance: result('dns_performance', 'success') }))).toBe('healthy');
    expect(overallStatus(all({ dkim: result('dkim', 'unknown') }))).toBe('warning');
  });
  it('is critical for SPF or DMARC in error or missing, a listing, or an expired certificate', () => {
    expect(overallStatus(all({ spf: result('spf', 'missing') }))).toBe('critical');
    expect(overallStatus(all({ dmarc: result('dmarc', 'error') }))).toBe('critical');
    expect(overallStatus(all({ blacklist: result('blacklist', 'error') }))).toBe('critical');
    expect(overallStatus(all({ ssl_certificate: result('ssl_certificate', 'error', { daysRemaining: -2 }) }))).toBe('critical');
  });
  it('is warning for any other problem', () => {
    expect(overallStatus(all({ ssl_certificate: result('ssl_certificate', 'error', { daysRemaining: 40 }) }))).toBe('warning');
    expect(overallStatus(all({ dkim: result('dkim', 'missing') }))).toBe('warning');
    expect(overallStatus(all({ dns_performance: result('dns_performance', 'warning') }))).toBe('warning');
  });
  it('takes a mail check into account only when it fails: missing MTA-STS or TLS-RPT, or port 25 out of reach, is not a problem of the domain', () => {
    expect(overallStatus(all({ mta_sts: result('mta_sts', 'missing'), tls_rpt: result('tls_rpt', 'missing') }))).toBe('healthy');
    expect(overallStatus(all({ smtp: result('smtp', 'unknown'), reverse_dns: result('reverse_dns', 'warning') }))).toBe('healthy');
    expect(overallStatus(all({ smtp: result('smtp', 'error') }))).toBe('warning');
    expect(overallStatus(all({ mta_sts: result('mta_sts', 'error') }))).toBe('warning');
  });
});
