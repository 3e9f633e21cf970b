import { describe, expect, it } from 'vitest';
import { ReportRefusal } from '../refusal.js';
import { assertTlsPolicyDomain } from './assert-tls-policy-domain.js';
import type { TlsPolicyResult, TlsReport } from './types.js';

function reportFor(...domains: string[]): TlsReport {
  const policy = (domain: string): TlsPolicyResult => ({ type: 'sts', domain, strings: [], mxHosts: [], successful: 1, failed: 0, failures: [] });
  return { organization: 'X', contact: null, reportId: 'r', period: { start: new Date(0), end: new Date(1) }, policies: domains.map(policy) };
}

describe('assertTlsPolicyDomain', () => {
  it('accepts a report with a policy for the domain or a name below it', () => {
    expect(() => assertTlsPolicyDomain(reportFor('other.example', 'example.com'), 'Example.COM.')).not.toThrow();
    expect(() => assertTlsPolicyDomain(reportFor('mail.example.com'), 'example.com')).not.toThrow();
  });

  it('refuses a report about other domains, including look-alike suffixes', () => {
    for (const report of [reportFor('badexample.com'), reportFor('example.com.evil.test'), reportFor()]) {
      let caught: unknown;
      try {
        assertTlsPolicyDomain(report, 'example.com');
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(ReportRefusal);
      expect((caught as ReportRefusal).code).toBe('POLICY_DOMAIN_MISMATCH');
    }
  });
});
