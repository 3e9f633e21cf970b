import { EMAIL_VERIFY_BULK_MAX, type EmailVerificationResult } from '@sendwell/contracts';
import { describe, expect, it } from 'vitest';
import { batches, parseAddressList, resultsCsv } from './address-list';

describe('parseAddressList', () => {
  it('reads addresses one per line or separated by commas, semicolons and spaces, once each', () => {
    expect(parseAddressList('a@x.test\r\nb@x.test, c@x.test;d@x.test  A@X.test\n\n"e@x.test" <f@x.test>')).toEqual({
      emails: ['a@x.test', 'b@x.test', 'c@x.test', 'd@x.test', 'e@x.test', 'f@x.test'],
      duplicates: 1,
      overLimit: 0,
    });
  });

  it('keeps only the address cells of a CSV', () => {
    expect(parseAddressList('name,email\nJane,jane@x.test\nJohn,john@x.test').emails).toEqual(['jane@x.test', 'john@x.test']);
  });

  it('keeps the first 1,000 and counts the rest', () => {
    const text = Array.from({ length: EMAIL_VERIFY_BULK_MAX + 5 }, (_, i) => `u${i}@x.test`).join('\n');
    const list = parseAddressList(text);
    expect(list.emails).toHaveLength(EMAIL_VERIFY_BULK_MAX);
    expect(list.overLimit).toBe(5);
  });
});

describe('resultsCsv', () => {
  const result = (email: string, description: string): EmailVerificationResult => ({ email, category: 'do_not_send', status: 'syntax_error', description, timestamp: '2026-11-25T10:00:00.000Z' });
  it('writes a header and one quoted-where-needed row per result', () => {
    expect(resultsCsv([result('a@x.test', 'Fine, "really"')])).toBe(
      'email,category,status,description,verified_at\r\na@x.test,Do Not Send,syntax_error,"Fine, ""really""",2026-11-25T10:00:00.000Z\r\n',
    );
  });
  it('defuses cells a spreadsheet would run as a formula', () => {
    expect(resultsCsv([result('=HYPERLINK("http://x")@x.test', '-1')])).toContain(`"'=HYPERLINK(""http://x"")@x.test",Do Not Send,syntax_error,'-1,`);
  });
});

describe('batches', () => {
  it('splits a list in order', () => {
    expect(batches([1, 2, 3, 4, 5], 2)).toEqual([[1, 2], [3, 4], [5]]);
  });
});
