import { describe, expect, it } from 'vitest';
import { colonList, parseTagList, tagValue } from './tag-list.js';

describe('parseTagList (RFC 6376 §3.2)', () => {
  it('reads tags in order, trimming whitespace around names and values', () => {
    const list = parseTagList(' v = DKIM1 ;k=rsa;  p=MIIB IjAN ;');
    expect(list.faults).toEqual([]);
    expect(list.tags).toEqual([
      { name: 'v', value: 'DKIM1' },
      { name: 'k', value: 'rsa' },
      { name: 'p', value: 'MIIB IjAN' },
    ]);
  });

  it('keeps empty values (a revoked key is "p=")', () => {
    const list = parseTagList('v=DKIM1; p=');
    expect(tagValue(list, 'p')).toBe('');
    expect(tagValue(list, 'x')).toBeUndefined();
  });

  it('reports a duplicate tag once and keeps the first value', () => {
    const list = parseTagList('p=a; p=b; p=c');
    expect(list.faults).toEqual([{ kind: 'duplicate', name: 'p' }]);
    expect(tagValue(list, 'p')).toBe('a');
  });

  it('is case-sensitive unless asked to lower-case names', () => {
    expect(parseTagList('P=a; p=b').faults).toEqual([]);
    expect(parseTagList('P=a; p=b', { lowerCaseNames: true }).faults).toEqual([{ kind: 'duplicate', name: 'p' }]);
  });

  it('reports segments without "=", bad names, bad characters and empty tags', () => {
    const list = parseTagList('v=DKIM1; garbage; 1x=2; n=caf\u00e9;; p=abc');
    expect(list.faults.map((fault) => (fault.kind === 'syntax' ? fault.segment.trim() : fault.name))).toEqual([
      'garbage',
      '1x=2',
      'n=caf\u00e9',
      '',
    ]);
    expect(tagValue(list, 'p')).toBe('abc');
  });

  it('accepts the empty record and a lone trailing ";"', () => {
    expect(parseTagList('').faults).toEqual([]);
    expect(parseTagList('a=1;').faults).toEqual([]);
  });

  it('splits colon lists', () => {
    expect(colonList(' sha1 : sha256 ')).toEqual(['sha1', 'sha256']);
    expect(colonList('')).toEqual([]);
  });
});
