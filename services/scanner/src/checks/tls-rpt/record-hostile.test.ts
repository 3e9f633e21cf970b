import { adversarialInputs, hostileText, withinBudget } from '@sendwell/testing/hostile';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_TXT_RECORD_CHARS } from '../input-caps.js';
import { parseTlsRptRecord } from './record.js';

/** Issue 24: a hostile `_smtp._tls` record is read in linear time, or refused past the cap. */

const WORDS = ['v=TLSRPTv1', 'rua=', 'mailto:', 'https://', '@', ',', 'a@example.com', '%2C', '%'];

describe('the TLS-RPT record against hostile input', () => {
  it('reads 32K blanks within the budget (the /[ \\t]+$/ trim took 1.1 s) and refuses the record', () => {
    const parsed = withinBudget(() => parseTlsRptRecord(`v=TLSRPTv1;${' '.repeat(32 * 1024)}x`, 'example.com'));
    expect(parsed.findings.map((finding) => finding.code)).toEqual(['TLS_RPT_RECORD_TOO_LARGE']);
    expect(parsed.rua).toEqual([]);
  });

  it('reads a record just under the cap that ends in blanks as the record before them', () => {
    const text = `v=TLSRPTv1; rua=mailto:tls@example.com;${' '.repeat(MAX_TXT_RECORD_CHARS - 60)}`;
    expect(withinBudget(() => parseTlsRptRecord(text, 'example.com'))).toMatchObject({ validRua: ['mailto:tls@example.com'], findings: [] });
  });

  it('parses or refuses arbitrary and adversarial records within the budget, never throwing', () => {
    fc.assert(
      fc.property(hostileText(WORDS), (text) => {
        const parsed = withinBudget(() => parseTlsRptRecord(`v=TLSRPTv1${text}`, 'example.com'));
        expect(parsed.validRua.every((uri) => parsed.rua.includes(uri))).toBe(true);
      }),
      { numRuns: 200 },
    );
    for (const text of adversarialInputs(MAX_TXT_RECORD_CHARS - 10, ['rua=', 'mailto:a@', ',', '%'])) withinBudget(() => parseTlsRptRecord(`v=TLSRPTv1${text}`, 'example.com'));
  });
});
