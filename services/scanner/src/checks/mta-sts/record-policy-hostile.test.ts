import { adversarialInputs, hostileText, withinBudget } from '@sendwell/testing/hostile';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_TXT_RECORD_CHARS } from '../input-caps.js';
import { MAX_POLICY_BYTES } from './policy-fetch.js';
import { parseStsPolicy } from './policy.js';
import { parseStsRecord } from './record.js';

/** Issue 24: a hostile `_mta-sts` record or policy is read in linear time, or refused past its cap. */

const RECORD_WORDS = ['v=STSv1', 'id=', ';', 'id=2025', 'x_y.z=', '=='];
const POLICY_WORDS = ['version:', 'mode:', 'max_age:', 'mx:', 'STSv1', 'enforce', '*.', 'mx.example.com', ':', '\n'];

describe('the MTA-STS record against hostile input', () => {
  it('reads 32K blanks after the version within the budget (the /[ \\t]+$/ trim took 1.1 s)', () => {
    const parsed = withinBudget(() => parseStsRecord(`v=STSv1;${' '.repeat(32 * 1024)}x`));
    expect(parsed.findings.map((finding) => finding.code)).toEqual(['MTA_STS_RECORD_TOO_LARGE']);
    expect(parsed.findings[0]?.message).toBe(`The MTA-STS record is ${32 * 1024 + 9} characters long, more than the 8 KB any real record needs, so it was not read.`);
  });

  it('reads a record just under the cap that ends in blanks as the record before them', () => {
    const text = `v=STSv1; id=abc;${' \t'.repeat((MAX_TXT_RECORD_CHARS - 20) / 2)}`;
    expect(text.length).toBeLessThanOrEqual(MAX_TXT_RECORD_CHARS);
    expect(withinBudget(() => parseStsRecord(text))).toMatchObject({ id: 'abc', findings: [] });
  });

  it('parses or refuses arbitrary and adversarial records within the budget, never throwing', () => {
    fc.assert(
      fc.property(hostileText(RECORD_WORDS), (text) => {
        const parsed = withinBudget(() => parseStsRecord(`v=STSv1${text}`));
        expect(parsed.id === null || /^[a-z0-9]{1,32}$/i.test(parsed.id)).toBe(true);
      }),
      { numRuns: 200 },
    );
    for (const text of adversarialInputs(MAX_TXT_RECORD_CHARS - 7, ['id=', 'a=b;'])) withinBudget(() => parseStsRecord(`v=STSv1${text}`));
  });
});

describe('the MTA-STS policy against hostile input', () => {
  it('reads a 32K policy line of blanks within the budget (the line regex took 2.1 s)', () => {
    const policy = withinBudget(() => parseStsPolicy(`version: STSv1\nmode: enforce\nmax_age: 86400\nmx:${' '.repeat(32 * 1024)}mail.example.com${' \t'.repeat(16 * 1024)}\n`));
    expect(policy).toMatchObject({ version: 'STSv1', mode: 'enforce', maxAge: 86_400, mx: ['mail.example.com'], findings: [] });
    const noColon = withinBudget(() => parseStsPolicy(`version${' '.repeat(32 * 1024)}STSv1`));
    expect(noColon.findings[0]?.code).toBe('MTA_STS_POLICY_SYNTAX');
  });

  it('parses arbitrary and adversarial policies up to the 64 KB the fetch reads within the budget, never throwing', () => {
    fc.assert(
      fc.property(hostileText(POLICY_WORDS, 80), (body) => {
        const policy = withinBudget(() => parseStsPolicy(body));
        expect(policy.mx.every((pattern) => pattern === pattern.toLowerCase())).toBe(true);
      }),
      { numRuns: 200 },
    );
    // 64 KB of 16K lines takes a linear parse tens of milliseconds on a busy machine; a quadratic one takes seconds.
    for (const body of adversarialInputs(MAX_POLICY_BYTES, ['mx:', 'a:b\n', ':\r\n'])) withinBudget(() => parseStsPolicy(body), 250);
  });
});
