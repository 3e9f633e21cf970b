import { adversarialInputs, hostileText, withinBudget } from '@sendwell/testing/hostile';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_TXT_RECORD_CHARS } from '../../input-caps.js';
import { mentionsDmarcVersion, parseDmarcRecord, parseDmarcUri, startsWithDmarcVersion } from './record.js';

/** Issue 24: a hostile `_dmarc` record (tag list, URI lists, sizes) is read in linear time, or refused past the cap. */

const WORDS = ['v=DMARC1', 'p=', 'reject', 'rua=', 'ruf=', 'mailto:', 'a@example.com', '!', '10m', ',', 'pct=', 'fo=', '1:d:s', 'sp=', 'adkim=', 'ri=', 'np=', 'psd=', 't=', 'y', 'rf=', 'afrf'];

describe('the DMARC record against hostile input', () => {
  it('refuses a record past the cap with DMARC_RECORD_TOO_LARGE and no policy, within the budget', () => {
    const parsed = withinBudget(() => parseDmarcRecord(`v=DMARC1; p=reject; rua=${'mailto:a@example.com,'.repeat(500)}`));
    expect(parsed.policy).toBeNull();
    expect(parsed.findings.map((finding) => finding.code)).toEqual(['DMARC_RECORD_TOO_LARGE']);
  });

  it('parses arbitrary and adversarial records within the budget, never throwing', () => {
    fc.assert(
      fc.property(hostileText(WORDS), (text) => {
        const parsed = withinBudget(() => parseDmarcRecord(`v=DMARC1;${text}`));
        expect(parsed.rua.length + parsed.ruf.length).toBeLessThanOrEqual(text.length);
        withinBudget(() => [startsWithDmarcVersion(text), mentionsDmarcVersion(text), parseDmarcUri(text)]);
      }),
      { numRuns: 200 },
    );
    for (const text of adversarialInputs(MAX_TXT_RECORD_CHARS - 9, ['v=DMARC1', ';v=', 'mailto:', ',mailto:a@b!', 'rua=', 'a='])) {
      withinBudget(() => parseDmarcRecord(`v=DMARC1;${text}`));
      withinBudget(() => [startsWithDmarcVersion(text), mentionsDmarcVersion(text), parseDmarcUri(text)]);
    }
  });
});
