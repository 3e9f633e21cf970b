import { describe, expect, it } from 'vitest';
import { inCidr, parseIp, reverseName } from '../ip.js';
import { isSpfRecord, looksGlued, parseRecord } from './parse.js';

function parsed(text: string) {
  const result = parseRecord(text);
  if (!result.ok) throw new Error(`${result.problem.term}: ${result.problem.message}`);
  return result.record;
}

function problem(text: string) {
  const result = parseRecord(text);
  if (result.ok) throw new Error(`expected a syntax error in ${text}`);
  return result.problem;
}

describe('isSpfRecord', () => {
  it.each([
    ['v=spf1', true],
    ['v=spf1 -all', true],
    ['V=SPF1 -all', true],
    ['v=spf10 -all', false],
    ['v=spf1-all', false],
    ['spf2.0/pra -all', false],
    ['', false],
  ])('%s → %s', (txt, expected) => expect(isSpfRecord(txt)).toBe(expected));
});

describe('parseRecord', () => {
  it('parses every mechanism with qualifiers and CIDR lengths', () => {
    const record = parsed(
      'v=spf1 +a -a:mail.example.com/24 ~mx//64 ?mx:example.net/20//48 ptr ptr:example.org ip4:192.0.2.0/24 ip6:2001:db8::/32 include:_spf.example.com exists:%{i}._spf.%{d} a/24//64 -all',
    );
    const summary = record.mechanisms.map((m) => [m.qualifier, m.name, m.cidr4, m.cidr6]);
    expect(summary).toEqual([
      ['+', 'a', 32, 128],
      ['-', 'a', 24, 128],
      ['~', 'mx', 32, 64],
      ['?', 'mx', 20, 48],
      ['+', 'ptr', 32, 128],
      ['+', 'ptr', 32, 128],
      ['+', 'ip4', 24, 128],
      ['+', 'ip6', 32, 32],
      ['+', 'include', 32, 128],
      ['+', 'exists', 32, 128],
      ['+', 'a', 24, 64],
      ['-', 'all', 32, 128],
    ]);
    expect(record.hasAll).toBe(true);
  });

  it('reads modifiers, ignores unknown ones and is case-insensitive', () => {
    const record = parsed('V=SPF1 MX Redirect=_spf.example.com EXP=explain.%{d} foo=bar%{d} x-y.z=1');
    expect(record.redirect?.raw).toBe('Redirect=_spf.example.com');
    expect(record.exp).not.toBeNull();
    expect(record.unknownModifiers.map((m) => m.name)).toEqual(['foo', 'x-y.z']);
    expect(record.mechanisms[0]?.name).toBe('mx');
  });

  it('tolerates several spaces between terms and a trailing space', () => {
    expect(parsed('v=spf1   a    -all ').mechanisms).toHaveLength(2);
  });

  it.each([
    ['v=spf1 foo', 'foo'],
    ['v=spf1 a:museum', 'a:museum'],
    ['v=spf1 a:foo.example.123', 'a:foo.example.123'],
    ['v=spf1 a:', 'a:'],
    ['v=spf1 a/33', 'a/33'],
    ['v=spf1 a//129', 'a//129'],
    ['v=spf1 a/024', 'a/024'],
    ['v=spf1 ip4:192.0.2.300', 'ip4:192.0.2.300'],
    ['v=spf1 ip4:192.0.2.0/33', 'ip4:192.0.2.0/33'],
    ['v=spf1 ip4:2001:db8::1', 'ip4:2001:db8::1'],
    ['v=spf1 ip6:192.0.2.1', 'ip6:192.0.2.1'],
    ['v=spf1 ip6:2001:db8::/129', 'ip6:2001:db8::/129'],
    ['v=spf1 include', 'include'],
    ['v=spf1 exists:%{x}.example.com', 'exists:%{x}.example.com'],
    ['v=spf1 include:%{c}.example.com', 'include:%{c}.example.com'],
    ['v=spf1 -all:foo', '-all:foo'],
    ['v=spf1 ip4:192.0.2.1ip4:192.0.2.2', 'ip4:192.0.2.1ip4:192.0.2.2'],
    ['v=spf1 foo=%', 'foo=%'],
  ])('%s is a syntax error at %s', (text, term) => {
    expect(problem(text).term).toBe(term);
  });

  it('refuses duplicate redirect and exp', () => {
    expect(problem('v=spf1 redirect=a.example.com redirect=b.example.com').code).toBe('SPF_DUPLICATE_MODIFIER');
    expect(problem('v=spf1 exp=a.example.com exp=b.example.com -all').code).toBe('SPF_DUPLICATE_MODIFIER');
  });

  it('accepts domain-specs that end in a macro or a trailing dot', () => {
    expect(parsed('v=spf1 exists:%{l}.%{d} include:example.com. -all').mechanisms).toHaveLength(3);
  });

  it('spots terms glued together by a TXT string split', () => {
    expect(looksGlued('include:_spf.example.cominclude:other.example')).toBe(true);
    expect(looksGlued('ip4:192.0.2.1~all')).toBe(true);
    expect(looksGlued('include:_spf.example.com')).toBe(false);
  });
});

describe('ip helpers', () => {
  it('matches CIDR networks', () => {
    const net4 = parseIp('192.0.2.77');
    const ip4 = parseIp('192.0.2.200');
    const net6 = parseIp('2001:db8:1::');
    const ip6 = parseIp('2001:db8:1:ffff::1');
    if (!net4 || !ip4 || !net6 || !ip6) throw new Error('parse');
    expect(inCidr(ip4, net4, 24)).toBe(true);
    expect(inCidr(ip4, net4, 25)).toBe(false);
    expect(inCidr(ip4, net4, 0)).toBe(true);
    expect(inCidr(ip6, net6, 48)).toBe(true);
    expect(inCidr(ip6, net6, 49)).toBe(false);
    expect(inCidr(ip4, net6, 0)).toBe(false);
  });

  it('treats IPv4-mapped IPv6 as IPv4 and builds reverse names', () => {
    expect(parseIp('::ffff:192.0.2.1')).toMatchObject({ version: 4, text: '192.0.2.1' });
    const v4 = parseIp('192.0.2.1');
    const v6 = parseIp('2001:db8::1');
    if (!v4 || !v6) throw new Error('parse');
    expect(reverseName(v4)).toBe('1.2.0.192.in-addr.arpa');
    expect(reverseName(v6)).toBe('1.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.8.b.d.0.1.0.0.2.ip6.arpa');
  });
});
