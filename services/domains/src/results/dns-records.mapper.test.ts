import { describe, expect, it } from 'vitest';
import type { DnsSnapshot, DomainCheck } from '@sendwell/contracts';
import { toDnsRecords } from './dns-records.mapper.js';

const at = new Date('2026-01-02T03:04:05.000Z');
const snapshot: DnsSnapshot = {
  takenAt: at.toISOString(),
  a: ['192.0.2.1'],
  aaaa: [],
  mx: [{ exchange: 'mx.example.com', priority: 10, ips: ['192.0.2.25'] }],
  ns: ['ns1.example.com'],
  txt: ['v=spf1 mx -all'],
  spfRecord: 'v=spf1 mx -all',
  dmarcRecord: 'v=DMARC1; p=reject',
  failed: [],
};
const base = { id: 1, domainId: 1, scanId: '00000000-0000-4000-8000-000000000000', status: 'valid', value: null, message: null, recommendation: null, createdAt: at.toISOString() } as const;
const checks: DomainCheck[] = [
  { ...base, type: 'spf', details: { record: 'v=spf1 ip4:198.51.100.7 -all', flattenedIps: [{ ip: '198.51.100.7' }, { ip: '198.51.100.7' }] } },
  { ...base, type: 'dmarc', details: { record: 'v=DMARC1; p=none' } },
  { ...base, type: 'dns_performance', details: { aRecords: ['203.0.113.9'], mxRecords: [{ exchange: 'old-mx.example.com', priority: 5 }] } },
];
const scan = (dnsSnapshot: unknown) => ({ completedAt: at, createdAt: at, dnsSnapshot });

describe('toDnsRecords', () => {
  it("shows the scan's snapshot, with the SPF check's flattened addresses once each", () => {
    expect(toDnsRecords(scan(snapshot), checks)).toEqual({
      aRecords: ['192.0.2.1'],
      mxRecords: [{ exchange: 'mx.example.com', priority: 10, ips: ['192.0.2.25'] }],
      spfRecord: 'v=spf1 mx -all',
      spfIps: ['198.51.100.7'],
      dmarcRecord: 'v=DMARC1; p=reject',
      checkedAt: at.toISOString(),
    });
  });

  it("falls back to the checks' details for a scan without a snapshot, or with one that is not the contracts' shape", () => {
    const fromChecks = {
      aRecords: ['203.0.113.9'],
      mxRecords: [{ exchange: 'old-mx.example.com', priority: 5, ips: [] }],
      spfRecord: 'v=spf1 ip4:198.51.100.7 -all',
      spfIps: ['198.51.100.7'],
      dmarcRecord: 'v=DMARC1; p=none',
      checkedAt: at.toISOString(),
    };
    expect(toDnsRecords(scan(null), checks)).toEqual(fromChecks);
    expect(toDnsRecords(scan({ ...snapshot, mx: [{ exchange: 'mx.example.com', priority: -1, ips: [] }] }), checks)).toEqual(fromChecks);
    expect(toDnsRecords(scan({ a: 'not a list' }), checks)).toEqual(fromChecks);
  });

  it('answers empty records before any scan', () => {
    expect(toDnsRecords(undefined, checks)).toMatchObject({ aRecords: [], mxRecords: [], spfRecord: null, spfIps: [], checkedAt: null });
  });
});
