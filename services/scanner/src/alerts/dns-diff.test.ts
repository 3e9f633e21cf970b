import { describe, expect, it } from 'vitest';
import type { DnsSnapshot } from '@sendwell/contracts';
import { diffDns } from './dns-diff.js';

const base: DnsSnapshot = {
  takenAt: '2026-11-21T00:00:00.000Z',
  a: ['192.0.2.1'],
  aaaa: [],
  mx: [{ exchange: 'mx1.example.com', priority: 10, ips: ['192.0.2.25'] }],
  ns: ['ns1.example.com', 'ns2.example.com'],
  txt: ['v=spf1 include:_spf.google.com mx -all', 'google-site-verification=abc'],
  spfRecord: 'v=spf1 include:_spf.google.com mx -all',
  dmarcRecord: 'v=DMARC1; p=reject; rua=mailto:d@example.com',
  failed: [],
};
const summaries = (current: Partial<DnsSnapshot>, dkim: Parameters<typeof diffDns>[0]['dkim'] = null) =>
  diffDns({ previous: base, current: { ...base, ...current }, dkim }).map((c) => `${c.impact}: ${c.summary}`);

describe('semantic DNS differences', () => {
  it('finds nothing between equal snapshots', () => {
    expect(diffDns({ previous: base, current: { ...base, takenAt: 'later' }, dkim: null })).toEqual([]);
  });

  it('names a DMARC downgrade and a removed record', () => {
    expect(summaries({ dmarcRecord: 'v=DMARC1; p=none; rua=mailto:d@example.com' })).toEqual(['weakens: DMARC policy downgraded from reject to none']);
    expect(summaries({ dmarcRecord: 'v=DMARC1; p=reject; rua=mailto:d@example.com; pct=50' })).toEqual(['weakens: DMARC now applies to 50% of failing mail (was 100%)']);
    expect(summaries({ dmarcRecord: null })).toEqual(['weakens: DMARC record removed (it was: v=DMARC1; p=reject; rua=mailto:d@example.com)']);
  });

  it('names SPF terms lost and added, and a weaker all', () => {
    const spf = 'v=spf1 mx ip4:198.51.100.7 ~all';
    expect(summaries({ spfRecord: spf, txt: [spf, 'google-site-verification=abc'] })).toEqual([
      'weakens: SPF lost include:_spf.google.com',
      'mail: SPF added ip4:198.51.100.7',
      'weakens: SPF policy changed from -all to ~all',
    ]);
  });

  it('names MX hosts added, removed and re-pointed, and a domain left without MX', () => {
    expect(summaries({ mx: [{ exchange: 'mx2.example.com', priority: 20, ips: ['192.0.2.26'] }] })).toEqual([
      'mail: MX mx1.example.com (priority 10) removed',
      'mail: MX mx2.example.com (priority 20) added',
    ]);
    expect(summaries({ mx: [{ exchange: 'mx1.example.com', priority: 10, ips: ['192.0.2.99'] }] })).toEqual([
      'mail: MX mx1.example.com now resolves to 192.0.2.99 (was 192.0.2.25)',
    ]);
    expect(summaries({ mx: [] })).toContain('weakens: The domain has no MX records any more: mail to it falls back to its A record or bounces');
  });

  it('names DKIM selectors removed, added and re-keyed', () => {
    const dkim = { previous: [{ selector: 's1', record: 'v=DKIM1; p=AAA' }, { selector: 's2', record: 'v=DKIM1; p=BBB' }], current: [{ selector: 's2', record: 'v=DKIM1; p=CCC' }, { selector: 's3', record: 'v=DKIM1; p=DDD' }] };
    expect(summaries({}, dkim)).toEqual(['weakens: DKIM selector s1 removed', 'mail: DKIM key of selector s2 changed', 'mail: DKIM selector s3 added']);
  });

  it('rates address and verification-token changes as other, and skips sets either scan failed to read', () => {
    expect(summaries({ a: ['192.0.2.2'], txt: [base.spfRecord!] })).toEqual([
      'other: IPv4 addresses added: 192.0.2.2',
      'other: IPv4 addresses removed: 192.0.2.1',
      'other: TXT records removed: google-site-verification=abc',
    ]);
    expect(summaries({ a: [], failed: ['a'] })).toEqual([]);
    expect(summaries({ dmarcRecord: null, failed: ['dmarcRecord'] })).toEqual([]);
  });

  it('names an MTA-STS policy id change, and TLS-RPT and BIMI records published, changed or removed; a scan from before they were read compares nothing', () => {
    const mail = { ...base, mtaStsRecord: 'v=STSv1; id=20261101', tlsRptRecord: 'v=TLSRPTv1; rua=mailto:tls@example.com', bimiRecord: null };
    const diff = (current: Partial<DnsSnapshot>, previous: DnsSnapshot = mail) => diffDns({ previous, current: { ...mail, ...current }, dkim: null }).map((c) => `${c.record} ${c.impact}: ${c.summary}`);
    expect(diff({ mtaStsRecord: 'v=STSv1; id=20261126' })).toEqual(['MTA-STS mail: MTA-STS policy id changed from 20261101 to 20261126: senders fetch the policy again']);
    expect(diff({ mtaStsRecord: null })).toEqual(['MTA-STS weakens: MTA-STS record removed: senders stop insisting on TLS once their cached policy expires']);
    expect(diff({ tlsRptRecord: 'v=TLSRPTv1; rua=mailto:new@example.com', bimiRecord: 'v=BIMI1; l=https://example.com/logo.svg' })).toEqual([
      'TLS-RPT mail: TLS reporting record changed from v=TLSRPTv1; rua=mailto:tls@example.com to v=TLSRPTv1; rua=mailto:new@example.com',
      'BIMI mail: BIMI record published: v=BIMI1; l=https://example.com/logo.svg',
    ]);
    expect(diff({ mtaStsRecord: null, failed: ['mtaStsRecord'] })).toEqual([]);
    // The previous scan predates these records: nothing to compare, nothing reported as published.
    expect(diff({}, base)).toEqual([]);
  });
});
