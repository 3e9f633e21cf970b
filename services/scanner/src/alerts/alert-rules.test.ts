import { describe, expect, it } from 'vitest';
import type { CheckResult } from '../checks/types.js';
import type { DnsSnapshot } from '../scan/dns-snapshot.js';
import { certificateExpiry, diffSnapshots, dnsChangeAlert, sslExpiringAlert, sslThresholdReached } from './alert-rules.js';

const base: DnsSnapshot = {
  takenAt: '2026-11-21T00:00:00.000Z',
  a: ['192.0.2.1'],
  aaaa: [],
  mx: [{ exchange: 'mx.example.com', priority: 10, ips: ['192.0.2.25'] }],
  ns: ['ns1.example.com', 'ns2.example.com'],
  txt: ['v=spf1 mx -all'],
  spfRecord: 'v=spf1 mx -all',
  dmarcRecord: 'v=DMARC1; p=reject',
  failed: [],
};

describe('ssl thresholds', () => {
  it('picks the tightest threshold reached', () => {
    expect(sslThresholdReached(45)).toBeNull();
    expect(sslThresholdReached(31)).toBeNull();
    expect(sslThresholdReached(30)).toBe(30);
    expect(sslThresholdReached(15)).toBe(30);
    expect(sslThresholdReached(14)).toBe(14);
    expect(sslThresholdReached(7)).toBe(7);
    expect(sslThresholdReached(0)).toBe(7);
    expect(sslThresholdReached(-1)).toBeNull();
  });

  it('raises each threshold once per certificate, and never a looser one after a tighter one', () => {
    const expiry = { expiresAt: '2026-12-01T00:00:00.000Z', daysRemaining: 10 };
    expect(sslExpiringAlert('example.com', expiry, [])).toMatchObject({ type: 'ssl_expiring', severity: 'high', details: { threshold: 14 } });
    expect(sslExpiringAlert('example.com', expiry, [30])).toMatchObject({ details: { threshold: 14 } });
    expect(sslExpiringAlert('example.com', expiry, [14])).toBeNull();
    expect(sslExpiringAlert('example.com', expiry, [7])).toBeNull();
  });

  it('reads the expiry from the SSL check, computing days when the check gave none', () => {
    const ssl: CheckResult = { type: 'ssl_certificate', status: 'warning', value: null, message: '', recommendation: null, details: { findings: [], expiresAt: '2026-12-01T00:00:00Z' } };
    expect(certificateExpiry(ssl, new Date('2026-11-21T00:00:00Z'))).toEqual({ expiresAt: '2026-12-01T00:00:00.000Z', daysRemaining: 10 });
    expect(certificateExpiry({ ...ssl, details: { findings: [] } }, new Date())).toBeNull();
  });
});

describe('dns changes', () => {
  it('finds nothing between equal snapshots', () => {
    expect(diffSnapshots(base, { ...base, takenAt: 'later' })).toEqual([]);
    expect(dnsChangeAlert('example.com', [])).toBeNull();
  });

  it('lists what was added and removed, per record set', () => {
    const changed = { ...base, a: ['192.0.2.2'], mx: [{ exchange: 'mx2.example.com', priority: 20, ips: ['192.0.2.26'] }], dmarcRecord: null };
    const changes = diffSnapshots(base, changed);
    expect(changes).toEqual([
      { record: 'a', added: ['192.0.2.2'], removed: ['192.0.2.1'] },
      { record: 'mx', added: ['20 mx2.example.com (192.0.2.26)'], removed: ['10 mx.example.com (192.0.2.25)'] },
      { record: 'dmarcRecord', added: [], removed: ['v=DMARC1; p=reject'] },
    ]);
    const alert = dnsChangeAlert('example.com', changes);
    expect(alert).toMatchObject({ type: 'dns_change', severity: 'high' });
    expect(alert?.message).toContain('A, MX, DMARC');
  });

  it('skips record sets that either scan failed to read', () => {
    expect(diffSnapshots(base, { ...base, a: [], failed: ['a'] })).toEqual([]);
  });

  it('rates an address-only change low', () => {
    expect(dnsChangeAlert('example.com', diffSnapshots(base, { ...base, a: ['192.0.2.9'] }))?.severity).toBe('low');
  });
});
