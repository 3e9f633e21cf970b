import { adversarialInputs, hostileText, withinBudget } from '@sendwell/testing/hostile';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_TXT_RECORD_CHARS } from '../../input-caps.js';
import { MacroSyntaxError, parseMacroString } from './macro.js';
import { isSpfRecord, looksGlued, parseRecord } from './parse.js';

/** Issue 24: a hostile SPF record (terms, macros, CIDR tails) is read in linear time, or refused past the cap. */

const WORDS = ['v=spf1', ' ', 'include:', 'ip4:', 'ip6:', 'a:', 'mx/', '//', '/24', '::', 'redirect=', 'exp=', '%{', '%{ir}', '}', '.', '-all', '~all', '1.2.3.4', '%%', '%_', '%-'];

describe('the SPF record against hostile input', () => {
  it('refuses a record past the cap with SPF_RECORD_TOO_LARGE, within the budget', () => {
    const parsed = withinBudget(() => parseRecord(`v=spf1 ${'ip4:192.0.2.1 '.repeat(3000)}-all`));
    expect(parsed).toMatchObject({ ok: false, problem: { code: 'SPF_RECORD_TOO_LARGE' } });
  });

  it('parses arbitrary and adversarial records within the budget, never throwing', () => {
    fc.assert(
      fc.property(hostileText(WORDS), (text) => {
        const record = `v=spf1 ${text}`;
        const parsed = withinBudget(() => parseRecord(record));
        expect(parsed.ok || parsed.problem.message.length > 0).toBe(true);
        for (const term of record.split(' ')) withinBudget(() => looksGlued(term));
      }),
      { numRuns: 200 },
    );
    for (const text of adversarialInputs(MAX_TXT_RECORD_CHARS - 7, ['a:', '%{', 'ip4:1.', '/1', 'include:a.', 'a'])) {
      withinBudget(() => parseRecord(`v=spf1 ${text}`));
      withinBudget(() => isSpfRecord(`v=spf1 ${text}`));
      withinBudget(() => looksGlued(text));
    }
  });

  it('reads arbitrary macro strings within the budget, refusing bad ones with a syntax error only', () => {
    fc.assert(
      fc.property(hostileText(['%{', '}', 'ir', 'd1r', '.', '-', '+', '%', '%%']), (text) => {
        const outcome = withinBudget(() => {
          try {
            return parseMacroString(text);
          } catch (error) {
            return error;
          }
        });
        if (outcome instanceof Error) expect(outcome).toBeInstanceOf(MacroSyntaxError);
      }),
      { numRuns: 200 },
    );
  });
});
