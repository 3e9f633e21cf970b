import { describe, expect, it } from 'vitest';
import { checkDetailsByType, checkTypes, domainCheckSchema, findingSchema } from './check.js';

const base = {
  id: 1,
  domainId: 2,
  scanId: '8f14e45f-ceea-4e7a-9c1b-1b2f1d6f0c11',
  status: 'warning',
  value: 'v=spf1 ~all',
  message: null,
  recommendation: null,
  createdAt: '2025-06-15T12:00:00.000Z',
};

describe('domain checks (part 2 §3)', () => {
  it('types details by check type and keeps fields the scanner adds', () => {
    const parsed = domainCheckSchema.parse({
      ...base,
      type: 'spf',
      details: {
        issue: 'Too many DNS lookups',
        record: 'v=spf1 ~all',
        lookupCount: 12,
        flattenedIncludes: ['_spf.google.com'],
        findings: [{ code: 'SPF_TOO_MANY_LOOKUPS', severity: 'error', message: '12 lookups', rfc: 'RFC 7208 §4.6.4' }],
      },
    });
    expect(parsed.type).toBe('spf');
    if (parsed.type === 'spf') {
      expect(parsed.details.lookupCount).toBe(12);
      expect(parsed.details.findings?.[0]?.code).toBe('SPF_TOO_MANY_LOOKUPS');
    }
    expect((parsed.details as Record<string, unknown>).flattenedIncludes).toEqual(['_spf.google.com']);
  });

  it('accepts empty details for every type', () => {
    for (const type of checkTypes) expect(domainCheckSchema.safeParse({ ...base, type, details: {} }).success, type).toBe(true);
  });

  it('checks the blacklist shape', () => {
    const details = {
      sites: [{ name: 'Spamhaus ZEN', status: 'listed', url: null, lookupUrl: 'https://check.spamhaus.org/', removalUrl: null }],
      totalIpsChecked: 2,
      cleanIps: 1,
      listedIpsCount: 1,
      allIpResults: [{ ip: '192.0.2.1', clean: false, listedServices: [{ service: 'Spamhaus ZEN', removalUrl: 'https://x' }] }],
    };
    expect(checkDetailsByType.blacklist.safeParse(details).success).toBe(true);
    expect(checkDetailsByType.blacklist.safeParse({ sites: [{ name: 'X', status: 'maybe' }] }).success).toBe(false);
  });

  it('checks the DNS, DKIM, DMARC and SSL shapes', () => {
    expect(
      checkDetailsByType.dns_performance.safeParse({
        aRecords: ['192.0.2.1'],
        mxRecords: [{ exchange: 'mx.example.com', priority: 10, ips: ['192.0.2.2'] }],
        spfRecord: 'v=spf1 -all',
        spfIps: [],
        dmarcRecord: null,
      }).success,
    ).toBe(true);
    expect(checkDetailsByType.dns_performance.safeParse({ mxRecords: [{ exchange: 'mx' }] }).success).toBe(false);
    expect(checkDetailsByType.dkim.safeParse({ records: [{ selector: 'google', record: 'v=DKIM1; p=...' }] }).success).toBe(true);
    expect(checkDetailsByType.dmarc.safeParse({ policy: 'none' }).success).toBe(true);
    expect(checkDetailsByType.ssl_certificate.safeParse({ issuer: "Let's Encrypt", expiresAt: '2025-09-01T00:00:00Z' }).success).toBe(true);
    expect(checkDetailsByType.ssl_certificate.safeParse({ expiresAt: 'next week' }).success).toBe(false);
  });

  it('refuses an unknown type or status', () => {
    expect(domainCheckSchema.safeParse({ ...base, type: 'dnssec_chain', details: {} }).success).toBe(false);
    expect(domainCheckSchema.safeParse({ ...base, type: 'spf', status: 'passing', details: {} }).success).toBe(false);
  });

  it('findings have an UPPER_SNAKE code and a known severity', () => {
    expect(findingSchema.safeParse({ code: 'DMARC_POLICY_NONE', severity: 'warning', message: 'p=none' }).success).toBe(true);
    expect(findingSchema.safeParse({ code: 'dmarc-policy', severity: 'warning', message: 'x' }).success).toBe(false);
    expect(findingSchema.safeParse({ code: 'X', severity: 'fatal', message: 'x' }).success).toBe(false);
  });
});
