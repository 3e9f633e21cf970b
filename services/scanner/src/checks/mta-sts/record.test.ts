import { describe, expect, it } from 'vitest';
import { isStsRecord, looksLikeStsRecord, parseStsRecord } from './record.js';

const codes = (text: string) => parseStsRecord(text).findings.map((finding) => finding.code);

describe('the MTA-STS TXT record (RFC 8461 §3.1)', () => {
  it('tells records senders read from look-alikes they skip', () => {
    expect(isStsRecord('v=STSv1; id=1')).toBe(true);
    expect(isStsRecord('v=STSv1')).toBe(true);
    expect(isStsRecord('v=STSv10; id=1')).toBe(false);
    expect(isStsRecord('v=stsv1; id=1')).toBe(false);
    expect(looksLikeStsRecord('v=stsv1; id=1')).toBe(true);
    expect(looksLikeStsRecord(' v = STSv1; id=1')).toBe(true);
    expect(looksLikeStsRecord('v=spf1 -all')).toBe(false);
    expect(looksLikeStsRecord('v=STSv1; id=1')).toBe(false);
  });

  it.each([
    ['v=STSv1; id=20250101000000', '20250101000000'],
    ['v=STSv1;id=abc', 'abc'],
    ['v=STSv1 ;\tid=abc;', 'abc'],
    ['v=STSv1; id=abc; ext=1.0', 'abc'],
    [`v=STSv1; id=${'a'.repeat(32)}`, 'a'.repeat(32)],
  ])('reads %j', (text, id) => {
    expect(parseStsRecord(text)).toMatchObject({ id, findings: [] });
  });

  it.each([
    ['v=STSv1', 'MTA_STS_ID_INVALID'],
    ['v=STSv1; id=', 'MTA_STS_ID_INVALID'],
    ['v=STSv1; id=2025-01-01', 'MTA_STS_ID_INVALID'],
    [`v=STSv1; id=${'a'.repeat(33)}`, 'MTA_STS_ID_INVALID'],
    ['v=STSv1 id=abc', 'MTA_STS_RECORD_INVALID'],
    ['v=STSv1; id=abc;; x=1', 'MTA_STS_RECORD_INVALID'],
    ['v=STSv1; id=abc; broken', 'MTA_STS_RECORD_INVALID'],
    ['v=STSv1; id=abc; id=def', 'MTA_STS_DUPLICATE_FIELD'],
  ])('finds the fault in %j', (text, code) => {
    expect(codes(text)).toContain(code);
  });

  it('keeps the first of two ids', () => {
    expect(parseStsRecord('v=STSv1; id=abc; id=def').id).toBe('abc');
  });
});
