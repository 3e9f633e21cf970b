import { adversarialInputs, hostileText, withinBudget } from '@sendwell/testing/hostile';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_DECOMPRESSED_LOGO } from './bimi.check.js';
import { MAX_LOGO_BYTES } from './findings.js';
import { MAX_SVG_DEPTH, SVG_NS, validateSvg } from './svg.js';

/**
 * Issue 24: a hostile logo is validated in linear time and never throws. saxes reads the document in
 * one pass without expanding custom entities; the attribute checks are linear. A logo is at most
 * 32 KB as served; an SVGZ one decompresses to at most 1 MB (bimi.check.ts).
 */

const ROOT = `<svg xmlns="${SVG_NS}" version="1.2" baseProfile="tiny-ps" viewBox="0 0 1 1"><title>T</title>`;
const WORDS = ['<', '>', '</', '/>', '<g>', '</g>', '<svg', 'xmlns="http://www.w3.org/2000/svg"', '="', 'href="', 'url(', 'url( #a', ' on', '<!DOCTYPE svg [<!ENTITY a "aaaa">]>', '&a;', '&amp;', '<![CDATA[', ']]>', '<!--', '-->', '<?xml ', '?>', 'viewBox="', '0 0 1 1'];

describe('the BIMI logo against hostile input', () => {
  it('validates arbitrary and adversarial documents within the budget, never throwing', () => {
    fc.assert(
      fc.property(hostileText(WORDS, 60), (body) => {
        for (const text of [body, `${ROOT}${body}</svg>`]) {
          const report = withinBudget(() => validateSvg(text));
          expect(report.violations.every((violation) => violation.message.length > 0)).toBe(true);
        }
      }),
      { numRuns: 200 },
    );
    for (const body of adversarialInputs(MAX_LOGO_BYTES, ['<g>', '<g a="', 'url(', '<a:b ', '&#'])) withinBudget(() => validateSvg(`${ROOT}${body}</svg>`));
  });

  it('refuses nesting past the depth cap at once (saxes is quadratic in depth: 16K levels took 3 s)', () => {
    const nest = (depth: number) => `${ROOT}${'<g>'.repeat(depth)}${'</g>'.repeat(depth)}</svg>`;
    expect(withinBudget(() => validateSvg(nest(MAX_SVG_DEPTH - 1))).violations).toEqual([]);
    const deep = withinBudget(() => validateSvg(nest(Math.floor((MAX_DECOMPRESSED_LOGO - ROOT.length) / 7))));
    expect(deep.violations).toEqual([{ rule: 'document', severity: 'error', message: `its elements nest more than ${MAX_SVG_DEPTH} levels deep, far more than any logo` }]);
  });

  it('reads a megabyte of attributes or broken markup within the budget, stopping at the first error', () => {
    const attributes = withinBudget(() => validateSvg(`${ROOT}<rect fill="${'url('.repeat(MAX_DECOMPRESSED_LOGO / 4)}"/></svg>`));
    expect(attributes.violations.map((violation) => violation.rule)).toEqual(['external-reference']);
    const unclosed = withinBudget(() => validateSvg(`${ROOT}${'<g '.repeat(MAX_DECOMPRESSED_LOGO / 3)}`));
    expect(unclosed.violations).toMatchObject([{ rule: 'document', message: expect.stringMatching(/^it is not well-formed XML \(/) }]);
  });
});
