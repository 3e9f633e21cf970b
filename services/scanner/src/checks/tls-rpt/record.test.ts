import { describe, expect, it } from 'vitest';
import { isTlsRptRecord, looksLikeTlsRptRecord, parseTlsRptRecord, ruaProblem } from './record.js';

const codes = (text: string) => parseTlsRptRecord(text, 'example.com').findings.map((finding) => finding.code);

describe('the TLS-RPT record (RFC 8460 §3)', () => {
  it('tells records senders read from look-alikes they skip', () => {
    expect(isTlsRptRecord('v=TLSRPTv1; rua=mailto:a@example.com')).toBe(true);
    expect(isTlsRptRecord('v=TLSRPTv1;rua=mailto:a@example.com')).toBe(true);
    expect(isTlsRptRecord('v=tlsrptv1; rua=mailto:a@example.com')).toBe(false);
    expect(looksLikeTlsRptRecord('v=tlsrptv1; rua=mailto:a@example.com')).toBe(true);
    expect(looksLikeTlsRptRecord('v=spf1 -all')).toBe(false);
  });

  it('reads every destination of rua=', () => {
    expect(parseTlsRptRecord('v=TLSRPTv1; rua=mailto:tls@example.com , https://reports.example.net/v1/tlsrpt;', 'example.com')).toEqual({
      rua: ['mailto:tls@example.com', 'https://reports.example.net/v1/tlsrpt'],
      validRua: ['mailto:tls@example.com', 'https://reports.example.net/v1/tlsrpt'],
      findings: [],
    });
  });

  it.each([
    ['v=TLSRPTv1', 'TLS_RPT_RUA_MISSING'],
    ['v=TLSRPTv1;', 'TLS_RPT_RUA_MISSING'],
    ['v=TLSRPTv1 rua=mailto:a@example.com', 'TLS_RPT_RECORD_INVALID'],
    ['v=TLSRPTv1; rua=mailto:a@example.com;; x=1', 'TLS_RPT_RECORD_INVALID'],
    ['v=TLSRPTv1; rua=a@example.com', 'TLS_RPT_RUA_INVALID'],
    ['v=TLSRPTv1; rua=', 'TLS_RPT_RUA_INVALID'],
    ['v=TLSRPTv1; rua=mailto:a@example.com,', 'TLS_RPT_RUA_INVALID'],
    ['v=TLSRPTv1; rua=mailto:a@example.com; ruf=mailto:b@example.com', 'TLS_RPT_UNKNOWN_FIELD'],
  ])('finds the fault in %j', (text, code) => {
    expect(codes(text)).toContain(code);
  });

  it.each([
    ['mailto:tls@example.com', null],
    ['mailto:tls%2Breports@example.com', null],
    ['MAILTO:tls@Example.COM', null],
    ['https://reports.example.net/tlsrpt', null],
    ['tls@example.com', 'an address, not a URI: it needs the "mailto:" prefix'],
    ['mailto:example.com', 'not a valid mailto: address'],
    ['mailto:a@localhost', 'not a valid mailto: address'],
    ['http://reports.example.net/', 'an http: URL; reports are only sent over https:'],
    ['https://user:pw@reports.example.net/', 'not a valid https: URL'],
    ['ftp://reports.example.net/', 'a URI of scheme ftp:, while only mailto: and https: are report destinations'],
  ])('rua %j: %j', (uri, problem) => {
    expect(ruaProblem(uri)).toBe(problem);
  });
});
