import type { MailTestFinding } from '@sendwell/contracts';
import { describe, expect, it } from 'vitest';
import { byteSize, groupFindings, isFinished, linkFlags, openUntilText, pastTestTitle, points, quotaText, scoreArithmetic, statusLabel } from './mail-test-display';

const finding = (code: string, group: MailTestFinding['group'], severity: MailTestFinding['severity'], pts = 0, title = code): MailTestFinding => ({
  code,
  group,
  severity,
  title,
  explanation: 'why',
  fix: null,
  reference: null,
  points: pts,
});

describe('mail test display', () => {
  it('groups findings in the fixed order, problems first inside each group, empty groups kept', () => {
    const groups = groupFindings([
      finding('NO_LIST_UNSUBSCRIBE', 'headers', 'warning', 0.5),
      finding('DKIM_NONE', 'authentication', 'info'),
      finding('SPF_FAIL', 'authentication', 'error', 2),
      finding('DMARC_FAIL', 'authentication', 'error', 3),
    ]);
    expect(groups.map((g) => g.group)).toEqual(['connection', 'authentication', 'headers', 'content']);
    expect(groups[0]?.findings).toEqual([]);
    expect(groups[1]?.findings.map((f) => f.code)).toEqual(['DMARC_FAIL', 'SPF_FAIL', 'DKIM_NONE']);
    expect(groups[2]?.findings.map((f) => f.code)).toEqual(['NO_LIST_UNSUBSCRIBE']);
  });

  it('writes the score arithmetic with each deduction named by its finding', () => {
    const findings = [finding('SPF_FAIL', 'authentication', 'error', 2, 'SPF fails'), finding('NO_LIST_UNSUBSCRIBE', 'headers', 'warning', 0.5, 'No List-Unsubscribe')];
    const score = { value: 7.5, deductions: [{ code: 'SPF_FAIL', points: 2 }, { code: 'NO_LIST_UNSUBSCRIBE', points: 0.5 }, { code: 'INFO', points: 0 }] };
    expect(scoreArithmetic({ score, findings })).toBe('10 − 2 (SPF fails) − 0.5 (No List-Unsubscribe) = 7.5');
    expect(scoreArithmetic({ score: { value: 10, deductions: [] }, findings: [] })).toBe('10, nothing taken off = 10');
    expect(scoreArithmetic({ score: { value: 0, deductions: [{ code: 'A', points: 6 }, { code: 'B', points: 5 }] }, findings: [] })).toBe('10 − 6 (A) − 5 (B) = 0 (a score stops at 0)');
  });

  it('shows numbers with at most one decimal', () => {
    expect(points(7.5)).toBe('7.5');
    expect(points(8)).toBe('8');
    expect(points(0.25)).toBe('0.3');
    expect(points(9.96)).toBe('10');
  });

  it('names each status and knows which end the stream', () => {
    expect(statusLabel.received).toBe('Reading');
    expect(['waiting', 'received', 'done', 'failed', 'expired'].filter((s) => isFinished(s as never))).toEqual(['done', 'failed', 'expired']);
  });

  it('says until when the address is open, in the user time zone', () => {
    const expiresAt = '2026-11-27T06:35:00.000Z';
    expect(openUntilText(expiresAt, Date.parse('2026-11-27T05:38:30Z'), 'UTC')).toBe('Open until 06:35 (57 min left)');
    expect(openUntilText(expiresAt, Date.parse('2026-11-27T05:38:30Z'), 'Australia/Sydney')).toBe('Open until 17:35 (57 min left)');
    expect(openUntilText(expiresAt, Date.parse('2026-11-27T06:40:00Z'), 'UTC')).toBe('Closed at 06:35');
  });

  it('titles a past test by subject, else address; words the quota and sizes', () => {
    expect(pastTestTitle({ subject: 'Welcome', address: 'test-x@r.test' })).toBe('Welcome');
    expect(pastTestTitle({ subject: '  ', address: 'test-x@r.test' })).toBe('test-x@r.test');
    expect(quotaText({ used: 2, limit: 10 })).toBe('2 of 10 tests used today');
    expect(byteSize(512)).toBe('512 B');
    expect(byteSize(2560)).toBe('2.5 KB');
  });

  it('lists what is wrong with a link', () => {
    const link = { href: 'http://bit.ly/x', host: 'bit.ly', text: null, plainHttp: true, shortener: true, textMismatch: false, blocklisted: false };
    expect(linkFlags(link)).toEqual(['plain HTTP', 'URL shortener']);
    expect(linkFlags({ ...link, plainHttp: false, shortener: false })).toEqual([]);
  });
});
