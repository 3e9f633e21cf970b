import type { HistoryScan } from '@sendwell/contracts';
import { describe, expect, it } from 'vitest';
import { groupScansBySecond, parseScanTimestamp, scanNearest, scanTimestampParam, whatChanged } from './history';

const scan = (createdAt: string, over: Partial<HistoryScan> = {}): HistoryScan => ({
  id: `00000000-0000-4000-8000-${String(Date.parse(createdAt) % 1e12).padStart(12, '0')}`,
  status: 'completed',
  createdAt,
  checkCount: 6,
  passedCount: 6,
  health: 'healthy',
  overallStatus: 'healthy',
  checks: { spf: 'valid', dkim: 'valid', dmarc: 'valid', blacklist: 'valid', ssl_certificate: 'valid', dns_performance: 'success' },
  score: null,
  dnsChanges: [],
  ...over,
});

describe('grouping by second (part 2 §2.3)', () => {
  it('puts scans of one second in one group, newest first, with the combined health', () => {
    const groups = groupScansBySecond([
      scan('2026-11-25T10:00:05.900Z', { checks: { spf: 'error' }, checkCount: 1, passedCount: 0, health: 'critical', score: 40 }),
      scan('2026-11-25T10:00:05.100Z', { checks: { dkim: 'valid', spf: 'valid' }, checkCount: 2, passedCount: 2 }),
      scan('2026-11-25T09:00:00.000Z', { dnsChanges: ['MX changed'] }),
    ]);
    expect(groups.map((g) => [g.second, g.scans.length])).toEqual([
      ['2026-11-25T10:00:05Z', 2],
      ['2026-11-25T09:00:00Z', 1],
    ]);
    // The newer scan's SPF wins; the group counts every check type once.
    expect(groups[0]).toMatchObject({ checks: { spf: 'error', dkim: 'valid' }, checkCount: 2, passedCount: 1, health: 'critical', score: 40 });
    expect(groups[1]).toMatchObject({ checkCount: 6, passedCount: 6, health: 'healthy', dnsChanges: ['MX changed'] });
  });

  it('answers no groups for no scans', () => {
    expect(groupScansBySecond([])).toEqual([]);
  });
});

describe('the dashed timestamp of /domain/{domain}/{timestamp}', () => {
  it('replaces colons and dots with dashes and reads back the same instant', () => {
    const param = scanTimestampParam('2026-11-25T10:04:05.123Z');
    expect(param).toBe('2026-11-25T10-04-05-123Z');
    expect(parseScanTimestamp(param)?.toISOString()).toBe('2026-11-25T10:04:05.123Z');
  });

  it('reads a plain ISO time too, and rejects what is not a time', () => {
    expect(parseScanTimestamp('2026-11-25T10:04:05Z')?.toISOString()).toBe('2026-11-25T10:04:05.000Z');
    for (const bad of ['yesterday', '2026-13-45T99-99-99Z', '', '12345']) expect(parseScanTimestamp(bad)).toBeNull();
  });
});

describe('the 10-minute match window (part 2 §9)', () => {
  const scans = [scan('2026-11-25T10:00:00Z'), scan('2026-11-25T10:12:00Z')];
  it('picks the nearest scan within 10 minutes', () => {
    expect(scanNearest(scans, new Date('2026-11-25T10:07:00Z'))?.createdAt).toBe('2026-11-25T10:12:00Z');
    expect(scanNearest(scans, new Date('2026-11-25T09:50:00Z'))?.createdAt).toBe('2026-11-25T10:00:00Z');
  });
  it('finds nothing further away', () => {
    expect(scanNearest(scans, new Date('2026-11-25T09:49:59Z'))).toBeNull();
  });
});

describe('what changed between consecutive scans', () => {
  it('names each check whose shown status moved, then the DNS differences', () => {
    const [newer, older] = groupScansBySecond([
      scan('2026-11-25T10:00:00Z', { checks: { dmarc: 'warning', blacklist: 'error', ssl_certificate: 'valid' }, dnsChanges: ['DMARC policy downgraded from reject to none'] }),
      scan('2026-11-25T09:00:00Z', { checks: { dmarc: 'valid', blacklist: 'valid', ssl_certificate: 'valid' } }),
    ]);
    expect(whatChanged(newer!, older)).toEqual(['DMARC: Valid → Warning', 'Blacklists: Clean → Listed', 'DMARC policy downgraded from reject to none']);
    expect(whatChanged(older!, undefined)).toEqual([]);
  });
});
