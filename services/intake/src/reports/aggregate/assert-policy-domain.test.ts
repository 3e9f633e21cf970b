import { describe, expect, it } from 'vitest';
import { ReportRefusal } from '../refusal.js';
import { assertPolicyDomain } from './assert-policy-domain.js';
import { parseAggregateReport } from './parse-aggregate-report.js';

const reportFor = (domain: string) =>
  parseAggregateReport(`<feedback><report_metadata><report_id>1</report_id><date_range><begin>0</begin><end>1</end></date_range></report_metadata><policy_published><domain>${domain}</domain></policy_published></feedback>`);

describe('assertPolicyDomain', () => {
  it('accepts the domain itself and its subdomains, whatever the case or a root dot', () => {
    for (const [domain, issuedFor] of [['example.com', 'example.com'], ['Mail.Example.com.', 'EXAMPLE.COM'], ['a.b.example.com', 'example.com.']]) {
      expect(() => assertPolicyDomain(reportFor(domain as string), issuedFor as string)).not.toThrow();
    }
  });

  it('refuses another domain, a parent, and a look-alike suffix', () => {
    for (const [domain, issuedFor] of [['example.org', 'example.com'], ['example.com', 'mail.example.com'], ['badexample.com', 'example.com']]) {
      let caught: unknown;
      try {
        assertPolicyDomain(reportFor(domain as string), issuedFor as string);
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(ReportRefusal);
      expect((caught as ReportRefusal).code).toBe('POLICY_DOMAIN_MISMATCH');
    }
  });
});
