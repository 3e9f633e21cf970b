import { adversarialInputs, hostileText, withinBudget } from '@sendwell/testing/hostile';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_TXT_RECORD_CHARS } from '../input-caps.js';
import { isBimiRecord, looksLikeBimiRecord, parseBimiRecord } from './record.js';

/** Issue 24: a hostile `default._bimi` record is read in linear time, or refused past the cap. */

const WORDS = ['v=BIMI1', 'l=', 'a=', 'https://', 'bimi.example.com/logo.svg', 'avp=brand', 's=', '%', '[::1]', '@', ':443'];

describe('the BIMI record against hostile input', () => {
  it('refuses a record past the cap with BIMI_RECORD_TOO_LARGE and no logo, within the budget', () => {
    const parsed = withinBudget(() => parseBimiRecord(`v=BIMI1; l=https://example.com/${'a'.repeat(MAX_TXT_RECORD_CHARS)}.svg`));
    expect(parsed).toMatchObject({ logoUrl: null, authorityUrl: null, declined: false, findings: [{ code: 'BIMI_RECORD_TOO_LARGE' }] });
  });

  it('parses arbitrary and adversarial records within the budget, never throwing', () => {
    fc.assert(
      fc.property(hostileText(WORDS), (text) => {
        const parsed = withinBudget(() => parseBimiRecord(`v=BIMI1;${text}`));
        expect(parsed.logoUrl === null || parsed.logoUrl.protocol === 'https:').toBe(true);
        withinBudget(() => [isBimiRecord(text), looksLikeBimiRecord(text)]);
      }),
      { numRuns: 200 },
    );
    for (const text of adversarialInputs(MAX_TXT_RECORD_CHARS - 8, ['l=https://', '/', 'a=', '%2'])) {
      withinBudget(() => parseBimiRecord(`v=BIMI1;${text}`));
      withinBudget(() => [isBimiRecord(text), looksLikeBimiRecord(text)]);
    }
  });
});
