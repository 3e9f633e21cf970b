import { describe, expect, it } from 'vitest';
import {
  avatarInitials,
  badgeCountText,
  blacklistLabel,
  bulkDeleteEstimateMb,
  checkBadgeVariant,
  checkRowLabel,
  checkRows,
  checksNearTimestamp,
  checkStatusLabel,
  countdownText,
  decodeScanTimestamp,
  deletedDaysLeft,
  displayDomainStatus,
  dnsPerformanceLabel,
  domainBadgeVariant,
  emailCategoryBanner,
  emailCategoryLabel,
  encodeScanTimestamp,
  fullName,
  groupChecksBySecond,
  invoiceStatusColor,
  isFixingGuideType,
  isPassedCheck,
  isRecentAlert,
  isRecentlyDeleted,
  lastCheckedText,
  lastScanText,
  minorToMajor,
  nextScanTime,
  poolHealthLabel,
  relativeTime,
  reportsUsedText,
  scanGroupHealth,
  sslLabel,
  summariseChecks,
  truncateText,
  uptimeText,
  usageTone,
} from './display.js';

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
  it('generic rows: valid Valid, warning Warning, anything else Error', () => {
    expect(checkStatusLabel('valid')).toBe('Valid');
    expect(checkStatusLabel('success')).toBe('Valid');
    expect(checkStatusLabel('warning')).toBe('Warning');
    expect(['error', 'missing', 'unknown', '', null].map(checkStatusLabel)).toEqual(Array(5).fill('Error'));
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
  it('lists the six card rows in order', () => {
    expect(checkRows.map((r) => r.title)).toEqual(['SPF Record', 'DKIM', 'DMARC', 'Blacklists', 'SSL Certificate', 'DNS Performance']);
  });
});

describe('scan groups (part 2 §4)', () => {
  it('critical if any error, failed or flagged; else warning if any warning; else healthy', () => {
    expect(scanGroupHealth(['valid', 'warning', 'error'])).toBe('critical');
    expect(scanGroupHealth(['valid', 'FAILED'])).toBe('critical');
    expect(scanGroupHealth(['flagged'])).toBe('critical');
    expect(scanGroupHealth(['valid', 'warning', 'missing'])).toBe('warning');
    expect(scanGroupHealth(['valid', 'missing', 'unknown'])).toBe('healthy');
    expect(scanGroupHealth([])).toBe('healthy');
  });
  it('passed means valid, passed or clean', () => {
    expect(['valid', 'passed', 'clean', 'Valid', 'success'].map(isPassedCheck)).toEqual([true, true, true, true, true]);
    expect(['warning', 'error', 'missing', 'unknown', null].map(isPassedCheck)).toEqual([false, false, false, false, false]);
  });
  it('summarises a group', () => {
    expect(summariseChecks(['valid', 'valid', 'warning', 'success', 'error', 'clean'])).toEqual({
      checkCount: 6,
      passedCount: 4,
      health: 'critical',
      passedText: '4/6 checks passed',
    });
  });
  it('groups checks by second, newest first', () => {
    const checks = [
      { id: 1, createdAt: '2025-06-15T10:00:00.100Z' },
      { id: 2, createdAt: '2025-06-15T10:00:00.900Z' },
      { id: 3, createdAt: '2025-06-15T10:00:01.000Z' },
      { id: 4, createdAt: 'garbage' },
    ];
    expect(groupChecksBySecond(checks)).toEqual([
      { at: '2025-06-15T10:00:01.000Z', checks: [checks[2]] },
      { at: '2025-06-15T10:00:00.000Z', checks: [checks[0], checks[1]] },
    ]);
  });
  it('matches checks within 10 minutes of a timestamp, both sides, edges included', () => {
    const at = '2025-06-15T10:00:00.000Z';
    const checks = [
      { createdAt: '2025-06-15T09:50:00.000Z' },
      { createdAt: '2025-06-15T09:49:59.999Z' },
      { createdAt: '2025-06-15T10:10:00.000Z' },
      { createdAt: '2025-06-15T10:10:00.001Z' },
    ];
    expect(checksNearTimestamp(checks, at)).toEqual([checks[0], checks[2]]);
    expect(checksNearTimestamp(checks, 'not a date')).toEqual([]);
  });
});

describe('scan timestamps in routes (part 2 §2.3, §2.6)', () => {
  it('replaces colons and dots by dashes', () => {
    expect(encodeScanTimestamp('2025-01-20T10:05:09.123Z')).toBe('2025-01-20T10-05-09-123Z');
  });
  it('round-trips', () => {
    for (const iso of ['2025-01-20T10:05:09.123Z', '2024-02-29T23:59:59.000Z', '2025-12-31T00:00:00.001Z']) {
      expect(decodeScanTimestamp(encodeScanTimestamp(iso))).toBe(iso);
    }
  });
  it('reads offsets, missing seconds or milliseconds, and plain ISO', () => {
    expect(decodeScanTimestamp('2025-01-20T10-05-09+10-00')).toBe('2025-01-20T00:05:09.000Z');
    expect(decodeScanTimestamp('2025-01-20T10-05')).toBe('2025-01-20T10:05:00.000Z');
    expect(decodeScanTimestamp('2025-01-20T10-05-09Z')).toBe('2025-01-20T10:05:09.000Z');
    expect(decodeScanTimestamp('2025-01-20T10:05:09.000Z')).toBe('2025-01-20T10:05:09.000Z');
  });
  it('gives null (Invalid date) for nonsense', () => {
    for (const bad of ['', 'yesterday', '2025-13-45T10-05-09Z', '2025-01-20', '2025-01-20T25-00-00Z']) {
      expect(decodeScanTimestamp(bad), bad).toBeNull();
    }
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
  it('an alert is recent within 24 h', () => {
    expect(isRecentAlert(ago(23 * hour), NOW)).toBe(true);
    expect(isRecentAlert(ago(day), NOW)).toBe(false);
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

describe('reports and billing', () => {
  it('cuts previews at 120 characters with an ellipsis', () => {
    expect(truncateText('a'.repeat(120))).toBe('a'.repeat(120));
    expect(truncateText('a'.repeat(121))).toBe(`${'a'.repeat(120)}...`);
    expect(truncateText('hello world', 6)).toBe('hello...');
  });
  it('estimates 0.02 MB per deleted report', () => {
    expect(bulkDeleteEstimateMb(3)).toBe('0.06');
    expect(bulkDeleteEstimateMb(0)).toBe('0.00');
  });
  it('amounts are minor units', () => {
    expect(minorToMajor(3450)).toBe(34.5);
  });
  it('invoice colours: paid green, open blue, draft grey, void red, other grey', () => {
    expect(['paid', 'open', 'draft', 'void', 'uncollectible', null].map(invoiceStatusColor)).toEqual([
      'green',
      'blue',
      'grey',
      'red',
      'grey',
      'grey',
    ]);
  });
});

describe('email verification and admin labels', () => {
  it('category labels', () => {
    expect(['send_to', 'risky', 'do_not_send', 'error', 'other', null].map(emailCategoryLabel)).toEqual([
      'Safe to Send',
      'Risky',
      'Do Not Send',
      'Error',
      'Unknown',
      'Unknown',
    ]);
  });
  it('category banners', () => {
    expect(emailCategoryBanner('send_to')).toBe('This email address is valid and safe to send emails to.');
    expect(emailCategoryBanner('risky')).toBe(
      'This email address may be risky. Consider additional verification before sending important emails.',
    );
    expect(emailCategoryBanner('do_not_send')).toBe('This email address should not be used for sending emails.');
    expect(emailCategoryBanner('error')).toBeNull();
  });
  it('pool health, other values Unknown', () => {
    expect(['healthy', 'warning', 'critical', 'degraded'].map(poolHealthLabel)).toEqual(['Healthy', 'Warning', 'Critical', 'Unknown']);
  });
  it('uptime in days, hours and minutes', () => {
    expect(uptimeText(0)).toBe('0d 0h 0m');
    expect(uptimeText(3 * 86_400 + 4 * 3600 + 12 * 60 + 59)).toBe('3d 4h 12m');
  });
  it('fixing guides exist for spf, dkim, dmarc and blacklist only', () => {
    expect(['spf', 'dkim', 'dmarc', 'blacklist', 'ssl', 'SPF'].map(isFixingGuideType)).toEqual([true, true, true, true, false, false]);
  });
});
