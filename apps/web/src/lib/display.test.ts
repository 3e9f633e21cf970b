import { dateFormats } from '@sendwell/contracts';
import { describe, expect, it } from 'vitest';
import {
  avatarInitials,
  badgeCountText,
  checkBadgeVariant,
  checkRowLabel,
  countdownText,
  deletedDaysLeft,
  displayDomainStatus,
  domainBadgeVariant,
  fullName,
  isFixingGuideType,
  isRecentlyDeleted,
  lastCheckedText,
  lastScanText,
  nextScanTime,
  relativeTime,
  reportsUsedText,
  usageTone,
  formatUserDate,
  formatUserDateTime,
} from './display';

const NOW = Date.parse('2025-06-15T12:00:00.000Z');
const sec = 1000;
const min = 60 * sec;
const hour = 60 * min;
const day = 24 * hour;
const ago = (ms: number) => new Date(NOW - ms).toISOString();

describe('domain status and badges (part 1 §3, §4)', () => {
  it('shows healthy, warning, critical and pending, anything else as unknown', () => {
    expect(['healthy', 'warning', 'critical', 'pending', 'error', 'unknown', '', null, 'HEALTHY'].map(displayDomainStatus)).toEqual([
      'healthy',
      'warning',
      'critical',
      'pending',
      'unknown',
      'unknown',
      'unknown',
      'unknown',
      'healthy',
    ]);
  });
  it('domain badge: healthy secondary, warning outline, critical destructive, else default', () => {
    expect(['healthy', 'warning', 'critical', 'pending', 'error', undefined].map(domainBadgeVariant)).toEqual([
      'secondary',
      'outline',
      'destructive',
      'default',
      'default',
      'default',
    ]);
  });
  it('check badge, case-insensitive', () => {
    expect(['valid', 'PASSED', 'Clean'].map(checkBadgeVariant)).toEqual(['secondary', 'secondary', 'secondary']);
    expect(checkBadgeVariant('Warning')).toBe('outline');
    expect(['error', 'missing', 'FAILED', 'flagged'].map(checkBadgeVariant)).toEqual(Array(4).fill('destructive'));
    expect(['success', 'unknown', '', null].map(checkBadgeVariant)).toEqual(Array(4).fill('default'));
  });
});

describe('check labels (part 1 §4, part 2 §4)', () => {
  const rowOf = (type: string) => (status: string | null | undefined) => checkRowLabel(type, status);
  const checkStatusLabel = rowOf('spf');
  const blacklistLabel = rowOf('blacklist');
  const sslLabel = rowOf('ssl_certificate');
  const dnsPerformanceLabel = rowOf('dns_performance');
  it('generic rows: valid Valid, warning Warning, anything else Error', () => {
    expect(checkStatusLabel('valid')).toBe('Valid');
    expect(checkStatusLabel('success')).toBe('Valid');
    expect(checkStatusLabel('warning')).toBe('Warning');
    expect(['error', 'missing', 'unknown', '', null].map(checkStatusLabel)).toEqual(Array(5).fill('Error'));
  });
  it('mail checks: missing is Not set up and unknown Unknown, not an error', () => {
    expect(['valid', 'success', 'warning', 'error', 'missing', 'unknown'].map((s) => checkRowLabel('mta_sts', s))).toEqual(['Valid', 'Valid', 'Warning', 'Error', 'Not set up', 'Unknown']);
    expect(checkRowLabel('smtp', 'unknown')).toBe('Unknown');
  });
  it('blacklist: unknown, valid or warning Clean; error Listed', () => {
    expect(['unknown', 'valid', 'warning', 'clean'].map(blacklistLabel)).toEqual(Array(4).fill('Clean'));
    expect(['error', 'listed', 'missing'].map(blacklistLabel)).toEqual(Array(3).fill('Listed'));
  });
  it('SSL: valid Valid, error Invalid, else Unknown', () => {
    expect(['valid', 'error', 'warning', 'missing', null].map(sslLabel)).toEqual(['Valid', 'Invalid', 'Unknown', 'Unknown', 'Unknown']);
  });
  it('DNS performance: success Excellent, warning Fair, error Poor, else Unknown', () => {
    expect(['success', 'warning', 'error', 'valid', undefined].map(dnsPerformanceLabel)).toEqual([
      'Excellent',
      'Fair',
      'Poor',
      'Unknown',
      'Unknown',
    ]);
  });
  it('a card row dispatches by type, including the short aliases', () => {
    expect(checkRowLabel('spf', 'warning')).toBe('Warning');
    expect(checkRowLabel('dmarc', 'missing')).toBe('Error');
    expect(checkRowLabel('blacklist', 'warning')).toBe('Clean');
    expect(checkRowLabel('ssl_certificate', 'error')).toBe('Invalid');
    expect(checkRowLabel('ssl', 'valid')).toBe('Valid');
    expect(checkRowLabel('dns_performance', 'success')).toBe('Excellent');
    expect(checkRowLabel('dns', 'error')).toBe('Poor');
  });
});

describe('relative times (part 1 §4)', () => {
  it.each([
    [0, 'Just now'],
    [59 * sec, 'Just now'],
    [60 * sec, '1m ago'],
    [59 * min + 59 * sec, '59m ago'],
    [hour, '1h ago'],
    [23 * hour + 59 * min, '23h ago'],
    [day, '1d ago'],
    [45 * day, '45d ago'],
    [-5 * min, 'Just now'],
  ])('%i ms ago reads %s', (elapsed, text) => {
    expect(relativeTime(ago(elapsed), NOW)).toBe(text);
  });
  it('accepts Date and epoch values', () => {
    expect(relativeTime(new Date(NOW - 2 * hour), new Date(NOW))).toBe('2h ago');
    expect(relativeTime(NOW - 3 * day, NOW)).toBe('3d ago');
  });
  it('card footer: Last checked or Never scanned', () => {
    expect(lastCheckedText(null, NOW)).toBe('Never scanned');
    expect(lastCheckedText(ago(5 * min), NOW)).toBe('Last checked: 5m ago');
  });
  it('overview line uses the most recent scan of any domain', () => {
    expect(lastScanText([], NOW)).toBe('No scans yet');
    expect(lastScanText([null, undefined], NOW)).toBe('No scans yet');
    expect(lastScanText([ago(3 * hour), null, ago(20 * min)], NOW)).toBe('Last scan: 20m ago');
    expect(lastScanText([ago(10 * sec)], NOW)).toBe('Last scan: Just now');
  });
});

describe('countdown chip (part 1 §2)', () => {
  const at = (ms: number) => new Date(NOW + ms).toISOString();
  it.each([
    [0, 'Scan due now'],
    [-min, 'Scan due now'],
    [30 * sec, '1m until next scan'],
    [14 * min, '14m until next scan'],
    [59 * min, '59m until next scan'],
    [60 * min, '1h 0m until next scan'],
    [3 * hour + 59 * min + 30 * sec, '4h 0m until next scan'],
    [23 * hour + 15 * min, '23h 15m until next scan'],
    [day, '1d 0h until next scan'],
    [2 * day + 5 * hour + 30 * min, '2d 5h until next scan'],
  ])('%i ms ahead reads %s', (ahead, text) => {
    expect(countdownText(at(ahead), NOW)).toBe(text);
  });
  it('next scan: last scan plus the plan interval, now when never scanned, null when manual', () => {
    expect(nextScanTime('basic', ago(hour), NOW)?.toISOString()).toBe(new Date(NOW + 3 * hour).toISOString());
    expect(nextScanTime('advanced', ago(0), NOW)?.toISOString()).toBe(new Date(NOW + 15 * min).toISOString());
    expect(nextScanTime('standard', null, NOW)?.getTime()).toBe(NOW);
    expect(nextScanTime('free', ago(hour), NOW)).toBeNull();
    expect(nextScanTime('other', ago(hour), NOW)).toBeNull();
  });
});

describe('people', () => {
  it('initials: first and last name, else 2 letters of the username, else U', () => {
    expect(avatarInitials({ firstName: 'ada', lastName: 'Lovelace', username: 'x' })).toBe('AL');
    expect(avatarInitials({ firstName: 'Ada', lastName: null, username: 'lovelace' })).toBe('LO');
    expect(avatarInitials({ firstName: ' ', lastName: 'L', username: 'q' })).toBe('Q');
    expect(avatarInitials({ username: '' })).toBe('U');
    expect(avatarInitials(null)).toBe('U');
  });
  it('full name only when both parts exist', () => {
    expect(fullName({ firstName: 'Ada', lastName: 'Lovelace' })).toBe('Ada Lovelace');
    expect(fullName({ firstName: 'Ada', lastName: '' })).toBeNull();
  });
});

describe('recently deleted (part 1 §2)', () => {
  it('days left = deletion + 30 days - today, rounded up, never negative', () => {
    expect(deletedDaysLeft(ago(0), NOW)).toBe(30);
    expect(deletedDaysLeft(ago(sec), NOW)).toBe(30);
    expect(deletedDaysLeft(ago(day), NOW)).toBe(29);
    expect(deletedDaysLeft(ago(29 * day + hour), NOW)).toBe(1);
    expect(deletedDaysLeft(ago(30 * day), NOW)).toBe(0);
    expect(deletedDaysLeft(ago(45 * day), NOW)).toBe(0);
    expect(deletedDaysLeft('garbage', NOW)).toBe(0);
  });
  it('takes another window', () => {
    expect(deletedDaysLeft(ago(day), NOW, 90)).toBe(89);
  });
  it('lists deletions of the last 30 days', () => {
    expect(isRecentlyDeleted(ago(30 * day), NOW)).toBe(true);
    expect(isRecentlyDeleted(ago(30 * day + sec), NOW)).toBe(false);
  });
});

describe('sidebar and bell', () => {
  it('usage bar: green, amber above 70 %, red above 90 %', () => {
    expect(usageTone(7, 10)).toBe('green');
    expect(usageTone(71, 100)).toBe('amber');
    expect(usageTone(9, 10)).toBe('amber');
    expect(usageTone(91, 100)).toBe('red');
    expect(usageTone(0, 0)).toBe('green');
    expect(usageTone(1, 0)).toBe('red');
  });
  it('reports counter only for plans with a quota', () => {
    expect(reportsUsedText(3, 'standard')).toBe('3 / 100 reports');
    expect(reportsUsedText(3, 'free')).toBeNull();
    expect(reportsUsedText(3, 'other')).toBeNull();
  });
  it("badge: '99+' above 99", () => {
    expect(badgeCountText(0)).toBeNull();
    expect(badgeCountText(99)).toBe('99');
    expect(badgeCountText(100)).toBe('99+');
  });
});

describe('fixing guides', () => {
  it('fixing guides exist for spf, dkim, dmarc and blacklist only', () => {
    expect(['spf', 'dkim', 'dmarc', 'blacklist', 'ssl', 'SPF'].map(isFixingGuideType)).toEqual([true, true, true, true, false, false]);
  });
});

describe('formatUserDateTime', () => {
  it('adds the time of day in the user’s time zone', () => {
    expect(formatUserDateTime('2026-12-24T00:25:49.000Z', 'yyyy-MM-dd')).toBe('2026-12-24 12:25:49 AM');
    expect(formatUserDateTime('2026-12-24T00:25:49.000Z', 'MMM dd, yyyy', 'America/New_York')).toBe('Dec 23, 2026 7:25:49 PM');
  });
});

describe('formatUserDate', () => {
  it('writes a date in the user’s format and time zone', () => {
    const at = '2026-12-24T00:25:49.000Z';
    expect(formatUserDate(at, 'MM/dd/yyyy')).toBe('12/24/2026');
    expect(formatUserDate(at, 'dd/MM/yyyy')).toBe('24/12/2026');
    expect(formatUserDate(at, 'yyyy-MM-dd', 'America/New_York')).toBe('2026-12-23');
  });

  it('writes month names for every offered format that has them', () => {
    const at = '2026-12-24T00:25:49.000Z';
    expect(dateFormats.map((f) => formatUserDate(at, f))).toEqual([
      '12/24/2026',
      '24/12/2026',
      '2026-12-24',
      '24 Dec 2026',
      'Dec 24, 2026',
      'December 24, 2026',
      '24 December 2026',
      '12-24-2026',
      '24-12-2026',
    ]);
  });
});
