import { describe, expect, it } from 'vitest';
import { parseIp, dottedIp, readableIp } from '../ip.js';
import { expandMacro, MacroSyntaxError, parseMacroString, toQueryName, type MacroValues } from './macro.js';

/** The examples of RFC 7208 §7.4. */
function values(ip: string): MacroValues {
  const parsed = parseIp(ip);
  if (!parsed) throw new Error(ip);
  return {
    s: 'strong-bad@email.example.com',
    l: 'strong-bad',
    o: 'email.example.com',
    d: 'email.example.com',
    i: dottedIp(parsed),
    p: 'unknown',
    v: parsed.version === 4 ? 'in-addr' : 'ip6',
    h: 'mx.example.org',
    c: readableIp(parsed),
    r: 'unknown',
    t: '1000',
  };
}

const expand = (text: string, ip = '192.0.2.3', explanation = false) => expandMacro(parseMacroString(text, explanation), values(ip));

describe('macro expansion (RFC 7208 §7.4 examples)', () => {
  it.each([
    ['%{s}', 'strong-bad@email.example.com'],
    ['%{o}', 'email.example.com'],
    ['%{d}', 'email.example.com'],
    ['%{d4}', 'email.example.com'],
    ['%{d3}', 'email.example.com'],
    ['%{d2}', 'example.com'],
    ['%{d1}', 'com'],
    ['%{dr}', 'com.example.email'],
    ['%{d2r}', 'example.email'],
    ['%{l}', 'strong-bad'],
    ['%{l-}', 'strong.bad'],
    ['%{lr}', 'strong-bad'],
    ['%{lr-}', 'bad.strong'],
    ['%{l1r-}', 'strong'],
    ['%{ir}.%{v}._spf.%{d2}', '3.2.0.192.in-addr._spf.example.com'],
    ['%{lr-}.lp._spf.%{d2}', 'bad.strong.lp._spf.example.com'],
    ['%{lr-}.lp.%{ir}.%{v}._spf.%{d2}', 'bad.strong.lp.3.2.0.192.in-addr._spf.example.com'],
    ['%{ir}.%{v}.%{l1r-}.lp._spf.%{d2}', '3.2.0.192.in-addr.strong.lp._spf.example.com'],
    ['%{d2}.trusted-domains.example.net', 'example.com.trusted-domains.example.net'],
  ])('%s → %s', (macro, expected) => {
    expect(expand(macro)).toBe(expected);
  });

  it('expands IPv6 addresses as nibbles', () => {
    expect(expand('%{ir}.%{v}._spf.%{d2}', '2001:db8::cb01')).toBe(
      '1.0.b.c.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.8.b.d.0.1.0.0.2.ip6._spf.example.com',
    );
    expect(expand('%{c}', '2001:db8:0:0::cb01', true)).toBe('2001:db8::cb01');
  });

  it('handles %%, %_ and %- and URL-escapes upper-case letters', () => {
    expect(expand('a%%b%_c%-d')).toBe('a%b c%20d');
    expect(parseMacroString('%{S}').parts).toHaveLength(1);
    expect(expandMacro(parseMacroString('%{S}'), { ...values('192.0.2.3'), s: 'a b+c@x.example' })).toBe('a%20b%2Bc%40x.example');
    expect(expand('%{L}')).toBe('strong-bad');
  });

  it('splits on several delimiters and joins with dots', () => {
    expect(expandMacro(parseMacroString('%{l-+}'), { ...values('192.0.2.3'), l: 'a-b+c' })).toBe('a.b.c');
    expect(expandMacro(parseMacroString('%{l2r+-}'), { ...values('192.0.2.3'), l: 'a-b+c' })).toBe('b.a');
  });

  it('allows c, r and t only in explanations', () => {
    expect(() => parseMacroString('%{c}')).toThrow(MacroSyntaxError);
    expect(() => parseMacroString('%{r}')).toThrow(MacroSyntaxError);
    expect(expand('%{c} at %{t}', '192.0.2.3', true)).toBe('192.0.2.3 at 1000');
  });

  it.each(['%', '%x', '%{', '%{z}', '%{d0}', '%{d2x}', '%{}'])('rejects %s', (text) => {
    expect(() => parseMacroString(text)).toThrow(MacroSyntaxError);
  });

  it('truncates long names from the left to 253 characters', () => {
    const long = `${'a'.repeat(60)}.${'b'.repeat(60)}.${'c'.repeat(60)}.${'d'.repeat(60)}.${'e'.repeat(60)}.example.com`;
    const name = toQueryName(long);
    expect(name.length).toBeLessThanOrEqual(253);
    expect(name.startsWith('c')).toBe(true);
    expect(toQueryName('example.com.')).toBe('example.com');
  });
});
