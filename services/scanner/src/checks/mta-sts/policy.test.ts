import { describe, expect, it } from 'vitest';
import { mxCoverage, mxPatternMatches, parseStsPolicy } from './policy.js';

const codes = (body: string) => parseStsPolicy(body).findings.map((finding) => finding.code);

describe('the MTA-STS policy file (RFC 8461 §3.2)', () => {
  it('reads a policy with CRLF or LF lines', () => {
    for (const eol of ['\r\n', '\n']) {
      const body = ['version: STSv1', 'mode: enforce', 'mx: mail.example.com', 'mx: *.Example.NET', 'max_age: 604800', ''].join(eol);
      expect(parseStsPolicy(body)).toEqual({ version: 'STSv1', mode: 'enforce', maxAge: 604800, mx: ['mail.example.com', '*.example.net'], findings: [] });
    }
  });

  it('accepts a last line without a line break and blanks around the value', () => {
    expect(parseStsPolicy('version:STSv1\nmode:   testing  \nmx: a.example\nmax_age: 0')).toMatchObject({ mode: 'testing', maxAge: 0, findings: [] });
  });

  it('needs no mx in mode none', () => {
    expect(codes('version: STSv1\nmode: none\nmax_age: 86400\n')).toEqual([]);
  });

  it.each([
    ['mode: enforce\nmx: a.example\nmax_age: 86400', 'MTA_STS_POLICY_VERSION_INVALID'],
    ['version: STSv2\nmode: enforce\nmx: a.example\nmax_age: 86400', 'MTA_STS_POLICY_VERSION_INVALID'],
    ['version: STSv1\nmode: strict\nmx: a.example\nmax_age: 86400', 'MTA_STS_POLICY_MODE_INVALID'],
    ['version: STSv1\nmode: enforce\nmx: a.example', 'MTA_STS_POLICY_MAX_AGE_INVALID'],
    ['version: STSv1\nmode: enforce\nmx: a.example\nmax_age: 31557601', 'MTA_STS_POLICY_MAX_AGE_INVALID'],
    ['version: STSv1\nmode: enforce\nmx: a.example\nmax_age: -1', 'MTA_STS_POLICY_MAX_AGE_INVALID'],
    ['version: STSv1\nmode: enforce\nmax_age: 86400', 'MTA_STS_POLICY_MX_MISSING'],
    ['version: STSv1\nmode: enforce\nmx: mail.*.example\nmax_age: 86400', 'MTA_STS_POLICY_MX_INVALID'],
    ['version: STSv1\nmode: enforce\nmx: mx_1.example\nmax_age: 86400', 'MTA_STS_POLICY_MX_INVALID'],
    ['version: STSv1\nmode: enforce\nmx: a.example\nmax_age: 86400\nthis is not a field', 'MTA_STS_POLICY_SYNTAX'],
    ['Version: STSv1\nmode: enforce\nmx: a.example\nmax_age: 86400', 'MTA_STS_POLICY_SYNTAX'],
    ['version: STSv1\nmode: enforce\nmode: none\nmx: a.example\nmax_age: 86400', 'MTA_STS_DUPLICATE_FIELD'],
    ['version: STSv1\nmode: enforce\nmx: a.example\nmax-age: 86400', 'MTA_STS_POLICY_UNKNOWN_FIELD'],
  ])('finds the fault in %j', (body, code) => {
    expect(codes(body)).toContain(code);
  });

  it('uses the first of a repeated field', () => {
    expect(parseStsPolicy('version: STSv1\nmode: enforce\nmode: none\nmx: a.example\nmax_age: 86400').mode).toBe('enforce');
  });
});

describe('MX matching (RFC 8461 §4.1)', () => {
  it.each([
    ['mail.example.com', 'mail.example.com', true],
    ['mail.example.com', 'MAIL.Example.com.', true],
    ['mail.example.com', 'mail2.example.com', false],
    ['*.example.com', 'mx1.example.com', true],
    ['*.example.com', 'example.com', false],
    ['*.example.com', 'a.mx.example.com', false],
    ['*.example.com', 'mx1.example.org', false],
    ['*.example.com', 'mx1.notexample.com', false],
  ])('%s matches %s: %s', (pattern, host, matches) => {
    expect(mxPatternMatches(pattern, host)).toBe(matches);
  });

  it('names the pattern that covers each host', () => {
    expect(mxCoverage(['mx1.example.com', 'other.example.net'], ['*.example.com'])).toEqual([
      { exchange: 'mx1.example.com', covered: true, pattern: '*.example.com' },
      { exchange: 'other.example.net', covered: false, pattern: null },
    ]);
  });
});
