import { describe, expect, it } from 'vitest';
import { bulkDeleteEstimate, fileNameFromDisposition, reportsRefetchInterval, reportTypeLabel, summaryPreview } from './report-display';

describe('report display', () => {
  it('cuts the summary preview at 120 characters with an ellipsis', () => {
    const long = 'a'.repeat(119) + ' bcdef';
    expect(summaryPreview(long)).toBe(`${'a'.repeat(119)}…`);
    expect(summaryPreview('  short  ')).toBe('short');
    expect(summaryPreview('x'.repeat(120))).toBe('x'.repeat(120));
  });

  it('estimates 0.02 MB freed per report', () => {
    expect(bulkDeleteEstimate(1)).toBe('about 0.02 MB');
    expect(bulkDeleteEstimate(3)).toBe('about 0.06 MB');
    expect(bulkDeleteEstimate(50)).toBe('about 1.00 MB');
  });

  it('polls every 2 s while a report is in progress, else at the idle rate', () => {
    expect(reportsRefetchInterval([{ status: 'completed' }, { status: 'pending' }], 120_000)).toBe(2_000);
    expect(reportsRefetchInterval([{ status: 'generating' }], 120_000)).toBe(2_000);
    expect(reportsRefetchInterval([{ status: 'completed' }, { status: 'failed' }], 120_000)).toBe(120_000);
    expect(reportsRefetchInterval(undefined, 120_000)).toBe(120_000);
  });

  it('reads the file name of a Content-Disposition header', () => {
    expect(fileNameFromDisposition('attachment; filename="sendwell-a.example-2026-11-24.pdf"')).toBe('sendwell-a.example-2026-11-24.pdf');
    expect(fileNameFromDisposition("attachment; filename*=UTF-8''sendwell-%C3%BC.example.txt")).toBe('sendwell-ü.example.txt');
    expect(fileNameFromDisposition('inline; filename=plain.html')).toBe('plain.html');
    expect(fileNameFromDisposition('attachment; filename="../../etc/passwd"')).toBe('.._.._etc_passwd');
    expect(fileNameFromDisposition(null)).toBeNull();
    expect(fileNameFromDisposition('attachment')).toBeNull();
  });

  it('names the report types', () => {
    expect(['full', 'summary', 'automated', 'custom'].map(reportTypeLabel)).toEqual(['Full report', 'Summary', 'Automated report', 'Custom report']);
  });
});
