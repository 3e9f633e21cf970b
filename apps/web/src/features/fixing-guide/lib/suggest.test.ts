import type { SpfDetails } from '@sendwell/contracts';
import { describe, expect, it } from 'vitest';
import { hostFor, providerSteps } from './providers';
import { suggestDkim, suggestDmarc, suggestSpf } from './suggest';

const mx = [{ exchange: 'mx1.example.com', priority: 10 }];

describe('suggestSpf', () => {
  it('starts from the mail servers when there is no record, and says no one sends for a domain without mail', () => {
    expect(suggestSpf('example.com', undefined, mx).records).toEqual([{ type: 'TXT', host: 'example.com', value: 'v=spf1 mx ~all' }]);
    expect(suggestSpf('example.com', { record: null }, []).records[0]!.value).toBe('v=spf1 -all');
  });

  it('keeps the senders, drops ptr and turns +all into ~all', () => {
    const s = suggestSpf('example.com', { record: 'v=spf1 ip4:192.0.2.1 include:_spf.google.com ptr +all' }, mx);
    expect(s.records[0]!.value).toBe('v=spf1 ip4:192.0.2.1 include:_spf.google.com ~all');
    expect(s.replaces).toBe(true);
    expect(s.notes.join(' ')).toContain('Removed ptr');
  });

  it('keeps -all and suggests nothing for a record that is already right', () => {
    expect(suggestSpf('example.com', { record: 'v=spf1 mx -all' }, mx).records).toEqual([]);
  });

  it('flattens the costliest include until the record fits in 10 lookups, keeping its addresses', () => {
    const node = (domain: string, term: string | null, totalLookups: number, children: unknown[] = []) => ({ domain, term, totalLookups, children });
    const details = {
      record: 'v=spf1 include:big.example.net include:small.example.org mx -all',
      includeTree: node('example.com', null, 12, [
        node('big.example.net', 'include:big.example.net', 8, [node('deep.example.net', 'include:deep.example.net', 0)]),
        node('small.example.org', 'include:small.example.org', 1),
      ]),
      flattenedIps: [
        { ip: '198.51.100.0/24', source: 'big.example.net' },
        { ip: '2001:db8::/32', source: 'deep.example.net' },
        { ip: '203.0.113.9', source: 'small.example.org' },
      ],
    } as SpfDetails;
    const s = suggestSpf('example.com', details, mx);
    expect(s.records[0]!.value).toBe('v=spf1 ip4:198.51.100.0/24 ip6:2001:db8::/32 include:small.example.org mx -all');
    expect(s.notes.join(' ')).toContain('Flattened include:big.example.net into the 2 addresses');
  });
});

describe('suggestDmarc', () => {
  it('starts at p=none with pct=100 and reports to the user', () => {
    expect(suggestDmarc('example.com', undefined, 'me@example.com', false).records).toEqual([
      { type: 'TXT', host: '_dmarc.example.com', value: 'v=DMARC1; p=none; pct=100; rua=mailto:me@example.com' },
    ]);
  });

  it('takes the next step toward enforcement once SPF and DKIM pass, keeping the other tags', () => {
    expect(suggestDmarc('example.com', { record: 'v=DMARC1; p=none; rua=mailto:d@example.com; adkim=s' }, 'me@example.com', true).records[0]!.value).toBe(
      'v=DMARC1; p=quarantine; rua=mailto:d@example.com; adkim=s',
    );
    expect(suggestDmarc('example.com', { record: 'v=DMARC1; p=quarantine; pct=50; rua=mailto:d@example.com' }, 'me@example.com', true).records[0]!.value).toBe(
      'v=DMARC1; p=reject; pct=100; rua=mailto:d@example.com',
    );
  });

  it('adds a report address but holds the policy while authentication fails, and leaves reject alone', () => {
    const held = suggestDmarc('example.com', { record: 'v=DMARC1; p=none' }, 'me@example.com', false);
    expect(held.records[0]!.value).toBe('v=DMARC1; p=none; rua=mailto:me@example.com');
    expect(held.notes.join(' ')).toContain('Stay at this policy');
    expect(suggestDmarc('example.com', { record: 'v=DMARC1; p=reject; rua=mailto:d@example.com' }, 'me@example.com', true).records).toEqual([]);
  });
});

describe('suggestDkim', () => {
  it("names the mail provider's selectors from the MX", () => {
    const google = suggestDkim('example.com', { records: [] }, [{ exchange: 'aspmx.l.google.com', priority: 1 }]);
    expect(google.provider).toBe('Google Workspace');
    expect(google.records[0]!.host).toBe('google._domainkey.example.com');
    const microsoft = suggestDkim('example.com', undefined, [{ exchange: 'example-com.mail.protection.outlook.com', priority: 0 }]);
    expect(microsoft.records.map((r) => [r.type, r.host])).toEqual([
      ['CNAME', 'selector1._domainkey.example.com'],
      ['CNAME', 'selector2._domainkey.example.com'],
    ]);
  });

  it('falls back to selector._domainkey.{domain}, and suggests nothing when keys are published', () => {
    expect(suggestDkim('example.com', undefined, mx).records[0]!.host).toBe('selector._domainkey.example.com');
    expect(suggestDkim('example.com', { records: [{ selector: 's1', record: 'v=DKIM1; p=abc' }] }, mx).records).toEqual([]);
  });
});

describe('providers', () => {
  it('writes the host the way each panel wants it', () => {
    expect(hostFor('cloudflare', '_dmarc.example.com', 'example.com')).toBe('_dmarc');
    expect(hostFor('godaddy', 'example.com', 'example.com')).toBe('@');
    expect(hostFor('route53', '_dmarc.example.com', 'example.com')).toBe('_dmarc.example.com');
  });

  it('gives steps that name the host and the form', () => {
    const steps = providerSteps('namecheap', { type: 'TXT', host: '_dmarc.example.com', value: 'v=DMARC1; p=none' }, 'example.com', false);
    expect(steps).toContain('Add a record of type TXT with Host _dmarc.');
    expect(steps.at(-1)).toContain('the green check mark');
  });
});
