import { adversarialInputs, hostileText, withinBudget } from '@sendwell/testing/hostile';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_TXT_RECORD_CHARS } from '../input-caps.js';
import { analyseDkimKeyRecord, looksLikeDkimKey } from './key-record.js';

/** Issue 24: a hostile DKIM key record (tag list, huge base64) is read in linear time, or refused past the cap. */

const WORDS = ['v=DKIM1', 'k=rsa', 'k=ed25519', 'p=', 'MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA', 'AAAA', '==', 'h=sha256', 't=y:s', 's=*', 'n=', ':'];

describe('the DKIM key record against hostile input', () => {
  it('refuses a record past the cap with DKIM_RECORD_TOO_LARGE, within the budget', () => {
    const analysis = withinBudget(() => analyseDkimKeyRecord(`v=DKIM1; k=rsa; p=${'A'.repeat(16 * 1024)}`, 's1'));
    expect(analysis).toMatchObject({ usable: false, keyBits: null, findings: [{ code: 'DKIM_RECORD_TOO_LARGE' }] });
  });

  it('reads a key of base64 just under the cap within the budget', () => {
    const analysis = withinBudget(() => analyseDkimKeyRecord(`v=DKIM1; k=rsa; p=${'QUFB'.repeat((MAX_TXT_RECORD_CHARS - 20) / 4)}`, 's1'));
    expect(analysis.usable).toBe(false);
  });

  it('analyses arbitrary and adversarial records within the budget, never throwing', () => {
    fc.assert(
      fc.property(hostileText(WORDS), (text) => {
        const analysis = withinBudget(() => analyseDkimKeyRecord(text, 'selector'));
        if (analysis.usable) expect(analysis.findings.filter((finding) => finding.severity === 'error')).toEqual([]);
        withinBudget(() => looksLikeDkimKey(text));
      }),
      { numRuns: 200 },
    );
    for (const text of adversarialInputs(MAX_TXT_RECORD_CHARS, ['p=', 'a=1;', ';p=', 'A', 'v=DKIM1'])) {
      withinBudget(() => analyseDkimKeyRecord(text, 'selector'));
      withinBudget(() => looksLikeDkimKey(text));
    }
  });
});
