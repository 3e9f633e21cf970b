import { describe, expect, it } from 'vitest';
import type { CheckResult } from '../checks/types.js';
import { domainProfile, judgeNoMailDomain, notApplicable } from './domain-profile.js';

const check = (type: 'spf' | 'dmarc', status: CheckResult['status'], details: Record<string, unknown>): CheckResult => ({
  type,
  status,
  value: null,
  message: status,
  recommendation: null,
  details: { findings: [], ...details },
});

describe('domainProfile', () => {
  it('reads a lone "." MX as a null MX (RFC 7505), whatever its SPF', () => {
    expect(domainProfile([{ exchange: '', priority: 0 }], 'v=spf1 -all')).toBe('null_mx');
    expect(domainProfile([{ exchange: '.', priority: 0 }], null)).toBe('null_mx');
  });
  it('reads no MX with an SPF record that authorises nobody, or none, as parked', () => {
    expect(domainProfile([], 'v=spf1 -all')).toBe('parked');
    expect(domainProfile([], 'v=spf1 ~all')).toBe('parked');
    expect(domainProfile([], null)).toBe('parked');
  });
  it('keeps a domain that sends, receives, or could not be read as a mail domain', () => {
    // A sending-only domain: no MX, but SPF names its senders.
    expect(domainProfile([], 'v=spf1 include:_spf.example.net -all')).toBe('mail');
    expect(domainProfile([], 'v=spf1 redirect=_spf.example.net')).toBe('mail');
    expect(domainProfile([{ exchange: 'mx.example.com', priority: 10 }], 'v=spf1 -all')).toBe('mail');
    expect(domainProfile(null, 'v=spf1 -all')).toBe('mail');
  });
});

describe('a domain without mail', () => {
  it('gets the mail-only checks as not applicable, with full marks', () => {
    const result = notApplicable('smtp', 'parked.example', 'parked');
    expect(result).toMatchObject({ type: 'smtp', status: 'success', value: 'Not applicable' });
    expect(result.message).toBe('Not needed: parked.example has no MX and an SPF record that authorises no sender: it sends and receives no mail.');
    expect(result.details.findings).toEqual([expect.objectContaining({ code: 'NOT_APPLICABLE_NO_MAIL', severity: 'info', rfc: 'RFC 7208 §5.1' })]);
    expect(notApplicable('dkim', 'n.example', 'null_mx').details.findings[0]).toMatchObject({ rfc: 'RFC 7505 §3' });
  });
  it('should publish "v=spf1 -all" and DMARC p=reject: anything weaker is a warning', () => {
    const weak = judgeNoMailDomain(check('spf', 'valid', { record: 'v=spf1 ~all' }), check('dmarc', 'valid', { policy: 'none' }));
    expect(weak.spf.status).toBe('warning');
    expect(weak.spf.details.findings.map((f) => f.code)).toEqual(['NO_MAIL_SPF_NOT_HARDFAIL']);
    expect(weak.dmarc.status).toBe('warning');
    expect(weak.dmarc.recommendation).toBe('Publish "v=DMARC1; p=reject;".');
    const strict = judgeNoMailDomain(check('spf', 'valid', { record: 'v=spf1 -all' }), check('dmarc', 'valid', { policy: 'reject' }));
    expect([strict.spf.status, strict.dmarc.status]).toEqual(['valid', 'valid']);
    // A missing record stays missing (its own finding says so): no second finding on top.
    const missing = judgeNoMailDomain(check('spf', 'missing', { record: null }), check('dmarc', 'missing', {}));
    expect(missing.spf.details.findings).toEqual([]);
    expect(missing.dmarc.details.findings).toEqual([]);
  });

  it("asks a domain without mail for p=reject with reports to its own address, a missing record included", () => {
    const address = '0123456789abcdef01234567@reports.example.com';
    const weak = judgeNoMailDomain(check('spf', 'valid', { record: 'v=spf1 -all' }), check('dmarc', 'valid', { policy: 'none' }), address);
    expect(weak.dmarc.recommendation).toBe(`Publish "v=DMARC1; p=reject; rua=mailto:${address}".`);
    const missingFinding = { code: 'DMARC_MISSING', severity: 'error' as const, message: 'No DMARC record', recommendation: 'p=none first' };
    const missing = judgeNoMailDomain(check('spf', 'valid', { record: 'v=spf1 -all' }), { ...check('dmarc', 'missing', { orgDomain: 'parked.example' }), details: { orgDomain: 'parked.example', findings: [missingFinding] } }, address);
    expect(missing.dmarc.status).toBe('missing');
    expect(missing.dmarc.recommendation).toBe(`Publish a TXT record at _dmarc.parked.example: "v=DMARC1; p=reject; rua=mailto:${address}".`);
    expect(missing.dmarc.details.findings).toEqual([{ ...missingFinding, recommendation: missing.dmarc.recommendation }]);
  });
});
