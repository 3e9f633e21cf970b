import { HISTORY_DAYS_MAX, type HistoryDay, type HistoryScan } from '@sendwell/contracts';
import { describe, expect, it } from 'vitest';
import {
  dayHealthCounts,
  groupPages,
  groupScansBySecond,
  parseScanTimestamp,
  scanAtTime,
  scanCountLabel,
  scanNearest,
  scanTimestampParam,
  shouldLoadMore,
  timelineFrom,
  TIMELINE_DAYS,
  timelineSummary,
  toDomainPage,
  unchangedNote,
  whatChanged,
} from './history';

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

describe('paging a domain’s scans (issue 28)', () => {
  const page = (scans: HistoryScan[], nextCursor: string | null) => ({ scans, nextCursor });

  it('groups the joined pages, so a second split by a page boundary is one group', () => {
    const first = page([scan('2026-11-25T10:00:00.000Z'), scan('2026-11-25T09:00:05.900Z', { checks: { spf: 'valid' }, checkCount: 1, passedCount: 1 })], 'cursor-1');
    const second = page([scan('2026-11-25T09:00:05.100Z', { checks: { dkim: 'error' }, checkCount: 1, passedCount: 0, health: 'critical' }), scan('2026-11-25T08:00:00.000Z')], null);
    expect(groupPages([first]).map((g) => g.scans.length)).toEqual([1, 1]);
    const groups = groupPages([first, second]);
    expect(groups.map((g) => [g.second, g.scans.length])).toEqual([
      ['2026-11-25T10:00:00Z', 1],
      ['2026-11-25T09:00:05Z', 2],
      ['2026-11-25T08:00:00Z', 1],
    ]);
    expect(groups[1]).toMatchObject({ checks: { spf: 'valid', dkim: 'error' }, checkCount: 2, passedCount: 1, health: 'critical' });
    expect(groupPages(undefined)).toEqual([]);
  });

  it('reads the domain’s page out of the answer, an empty last page when it is missing', () => {
    const domain = { id: 7, name: 'a.test', status: 'healthy' as const, scanCount: 2, lastScan: null, isDeleted: false, deletedAt: null, scans: [scan('2026-11-25T10:00:00Z')], nextCursor: 'abc' };
    expect(toDomainPage([domain], 7)).toEqual({ scans: domain.scans, nextCursor: 'abc' });
    expect(toDomainPage([], 7)).toEqual({ scans: [], nextCursor: null });
  });

  it('asks for the next page only near the end of the loaded rows, with more to load and nothing in flight', () => {
    const at = (lastIndex: number | undefined, over: Partial<Parameters<typeof shouldLoadMore>[0]> = {}) => shouldLoadMore({ lastIndex, loaded: 100, hasNextPage: true, isFetching: false, ...over }, 10);
    expect(at(11)).toBe(false);
    expect(at(88)).toBe(false);
    expect(at(89)).toBe(true);
    expect(at(99)).toBe(true);
    expect(at(undefined)).toBe(false);
    expect(at(99, { hasNextPage: false })).toBe(false);
    expect(at(99, { isFetching: true })).toBe(false);
    expect(at(99, { failed: true })).toBe(false);
    // A first page shorter than the margin asks for the next at once.
    expect(shouldLoadMore({ lastIndex: 2, loaded: 3, hasNextPage: true, isFetching: false }, 10)).toBe(true);
  });

  it('counts loaded against total while pages remain', () => {
    expect(scanCountLabel(100, 1000, false)).toBe('100 of 1000 scans loaded');
    expect(scanCountLabel(1000, 1000, true)).toBe('1000 scans');
    expect(scanCountLabel(1, 1, true)).toBe('1 scan');
    expect(scanCountLabel(100, undefined, false)).toBe('100 scans loaded, older scans to load');
  });

  it('says "First scan kept" only on the very last row when no page remains', () => {
    expect(unchangedNote(99, 100, false)).toBe('First scan kept');
    expect(unchangedNote(99, 100, true)).not.toBe('First scan kept');
    expect(unchangedNote(5, 100, false)).toBe('No change from the scan before');
  });
});

describe('the scan at a time out of the scans up to 10 minutes after it', () => {
  const scans = [
    scan('2026-11-25T10:12:00Z', { checks: { dmarc: 'warning' } }),
    scan('2026-11-25T10:00:00Z', { checks: { dmarc: 'valid' } }),
    scan('2026-11-25T09:45:00Z', { checks: { dmarc: 'valid' } }),
  ];
  it('picks the nearest group within the window and what changed from the one before it', () => {
    expect(scanAtTime(scans, new Date('2026-11-25T10:08:00Z'))).toEqual({ scanId: scans[0]!.id, changes: ['DMARC: Valid → Warning'] });
    expect(scanAtTime(scans, new Date('2026-11-25T10:01:00Z'))).toEqual({ scanId: scans[1]!.id, changes: [] });
  });
  it('answers null without a scan in the window', () => {
    expect(scanAtTime(scans, new Date('2026-11-25T09:20:00Z'))).toBeNull();
    expect(scanAtTime([], new Date('2026-11-25T09:20:00Z'))).toBeNull();
  });
});

describe('the timeline’s days', () => {
  const day = (d: string, over: Partial<HistoryDay> = {}): HistoryDay => ({ day: d, scans: 96, health: 'healthy', overallStatus: 'healthy', score: null, ...over });

  it('asks for a year, within what the days call allows', () => {
    expect(TIMELINE_DAYS).toBeLessThanOrEqual(HISTORY_DAYS_MAX);
    const from = timelineFrom(Date.parse('2026-11-27T16:00:00Z'));
    expect(from).toBe('2025-11-28');
    expect((Date.parse('2026-11-27') - Date.parse(from)) / 86_400_000 + 1).toBe(TIMELINE_DAYS);
  });

  it('summarises the days, their health and the score for the figure’s accessible name', () => {
    const days = [day('2026-11-17', { scans: 40, score: 61 }), day('2026-11-18', { health: 'warning', score: null }), day('2026-11-27', { scans: 1, health: 'critical', score: 80 })];
    expect(timelineSummary('a.test', days)).toBe('a.test: 3 days with 137 scans from Nov 17 to Nov 27; 1 healthy, 1 warning, 1 critical; score from 61 to 80');
    expect(timelineSummary('a.test', [day('2026-11-17', { scans: 1 })])).toBe('a.test: 1 day with 1 scan from Nov 17 to Nov 17; 1 healthy, 0 warning, 0 critical');
    expect(dayHealthCounts(days)).toEqual({ healthy: 1, warning: 1, critical: 1 });
  });
});
