import { describe, expect, it } from 'vitest';
import { editDistance, POPULAR_DOMAINS, suggestDomain } from './typo-suggestion.js';

describe('editDistance', () => {
  it('counts an adjacent transposition as one edit', () => {
    expect(editDistance('gmial', 'gmail')).toBe(1);
    expect(editDistance('abc', 'abc')).toBe(0);
    expect(editDistance('', 'abc')).toBe(3);
    expect(editDistance('kitten', 'sitting')).toBe(3);
  });
});

describe('suggestDomain', () => {
  it.each([
    ['gmial.com', 'gmail.com'],
    ['gmai.com', 'gmail.com'],
    ['gnail.com', 'gmail.com'],
    ['gmail.con', 'gmail.com'],
    ['gmial.con', 'gmail.com'],
    ['hotmial.com', 'hotmail.com'],
    ['hotmal.com', 'hotmail.com'],
    ['yahooo.com', 'yahoo.com'],
    ['yaho.com', 'yahoo.com'],
    ['outlok.com', 'outlook.com'],
    ['outloo.com', 'outlook.com'],
    ['iclod.com', 'icloud.com'],
    ['example.con', 'example.com'],
    ['example.cmo', 'example.com'],
    ['example.nte', 'example.net'],
    ['example.ogr', 'example.org'],
  ])('%s → %s', (typo, meant) => {
    expect(suggestDomain(typo)).toBe(meant);
  });

  it('never flags a popular domain itself', () => {
    for (const domain of POPULAR_DOMAINS) expect(suggestDomain(domain)).toBeNull();
  });

  it.each(['example.com', 'sendwell.io', 'company.co.uk', 'gmx.at', 'example.co', 'example.cm', 'hotmail.fr', 'university.edu'])(
    'leaves %s alone',
    (domain) => {
      expect(suggestDomain(domain)).toBeNull();
    },
  );
});
