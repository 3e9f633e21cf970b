import { describe, expect, it } from 'vitest';
import { isPublicSuffix, organizationalDomain } from './org-domain.js';
import { mentionsDmarcVersion, parseDmarcRecord, parseDmarcUri, startsWithDmarcVersion } from './record.js';

const codes = (text: string) => parseDmarcRecord(text).findings.map((finding) => finding.code);

describe('parseDmarcRecord (RFC 7489 §6.3)', () => {
  it('reads every tag', () => {
    const record = parseDmarcRecord(
      'v=DMARC1; p=reject; sp=quarantine; np=reject; pct=50; adkim=s; aspf=r; ' +
        'rua=mailto:agg@example.com!10m, mailto:Reports@Vendor.example; ruf=mailto:forensic@example.com; fo=1:d; rf=afrf; ri=3600; ' +
        'psd=n; t=Y',
    );
    // pct, rf and ri are still read for RFC 7489 receivers; DMARCbis removed them, which is only worth knowing.
    expect(record.findings.map((finding) => [finding.code, finding.severity, finding.tag])).toEqual([
      ['DMARC_TAG_REMOVED', 'info', 'pct'],
      ['DMARC_TAG_REMOVED', 'info', 'rf'],
      ['DMARC_TAG_REMOVED', 'info', 'ri'],
    ]);
    expect(record).toMatchObject({
      policy: 'reject',
      subdomainPolicy: 'quarantine',
      nonExistentPolicy: 'reject',
      testing: true,
      psd: 'n',
      pct: 50,
      adkim: 'strict',
      aspf: 'relaxed',
      failureOptions: ['1', 'd'],
      reportFormat: ['afrf'],
      reportInterval: 3600,
    });
    expect(record.rua).toEqual([
      {
        uri: 'mailto:agg@example.com',
        scheme: 'mailto',
        address: 'agg@example.com',
        domain: 'example.com',
        maxSize: '10m',
        maxSizeBytes: 10 * 2 ** 20,
      },
      {
        uri: 'mailto:Reports@Vendor.example',
        scheme: 'mailto',
        address: 'Reports@vendor.example',
        domain: 'vendor.example',
        maxSize: null,
        maxSizeBytes: null,
      },
    ]);
    expect(record.ruf.map((uri) => uri.address)).toEqual(['forensic@example.com']);
  });

  it('applies the defaults and accepts case-insensitive names and values', () => {
    const record = parseDmarcRecord('V=DMARC1; P=Quarantine');
    expect(record).toMatchObject({
      policy: 'quarantine',
      subdomainPolicy: null,
      nonExistentPolicy: null,
      testing: false,
      psd: 'u',
      pct: null,
      adkim: 'relaxed',
      aspf: 'relaxed',
      rua: [],
      failureOptions: ['0'],
      reportInterval: 86400,
    });
    expect(record.findings).toEqual([]);
  });

  it('names the offending tag of each syntax fault', () => {
    const record = parseDmarcRecord('v=DMARC1; p=block; sp=maybe; pct=150; adkim=x; fo=2; rf=iodef; ri=soon');
    expect(record.findings.map((finding) => [finding.code, finding.tag])).toEqual([
      ['DMARC_POLICY_INVALID', 'p'],
      ['DMARC_SUBDOMAIN_POLICY_INVALID', 'sp'],
      ['DMARC_PCT_INVALID', 'pct'],
      ['DMARC_ALIGNMENT_INVALID', 'adkim'],
      ['DMARC_FO_INVALID', 'fo'],
      ['DMARC_RF_INVALID', 'rf'],
      ['DMARC_RI_INVALID', 'ri'],
      ['DMARC_TAG_REMOVED', 'pct'],
      ['DMARC_TAG_REMOVED', 'rf'],
      ['DMARC_TAG_REMOVED', 'ri'],
    ]);
    expect(record.findings.filter((finding) => finding.code !== 'DMARC_TAG_REMOVED').every((finding) => finding.severity === 'error')).toBe(true);
  });

  it('requires v=DMARC1 first and p= present', () => {
    expect(codes('p=reject; v=DMARC1')).toEqual(['DMARC_VERSION_NOT_FIRST']);
    expect(codes('v=dmarc1; p=reject')).toEqual(['DMARC_VERSION_INVALID']);
    expect(codes('v=DMARC1; rua=mailto:a@example.com')).toEqual(['DMARC_POLICY_MISSING']);
    expect(codes('v=DMARC1; p=reject; p=none')).toEqual(['DMARC_DUPLICATE_TAG']);
    expect(codes('v=DMARC1; p=reject; pct=-1')).toEqual(['DMARC_PCT_INVALID', 'DMARC_TAG_REMOVED']);
    expect(codes('v=DMARC1; p=reject; pct=0')).toEqual(['DMARC_TAG_REMOVED']);
  });

  it('warns about unknown tags, non-mailto URIs and a bad np=', () => {
    expect(codes('v=DMARC1; p=reject; rau=mailto:a@example.com')).toEqual(['DMARC_UNKNOWN_TAG']);
    expect(codes('v=DMARC1; p=reject; rua=https://reports.example/dmarc')).toEqual(['DMARC_URI_UNSUPPORTED_SCHEME']);
    expect(codes('v=DMARC1; p=reject; np=strict')).toEqual(['DMARC_NP_INVALID']);
  });

  it('reads the DMARCbis tags t and psd (RFC 9989 §4.7), a bad value a warning that reads as the default', () => {
    expect(parseDmarcRecord('v=DMARC1; p=reject; t=n; psd=y')).toMatchObject({ testing: false, psd: 'y', findings: [] });
    expect(parseDmarcRecord('v=DMARC1; p=reject; t=u; psd=U')).toMatchObject({ testing: false, psd: 'u' });
    const bad = parseDmarcRecord('v=DMARC1; p=reject; t=yes; psd=maybe; np=Reject');
    expect(bad).toMatchObject({ testing: false, psd: 'u', nonExistentPolicy: 'reject' });
    expect(bad.findings).toEqual([
      {
        code: 'DMARC_T_INVALID',
        severity: 'warning',
        message: 'The t= tag is "yes"; it must be "y" (testing) or "n".',
        rfc: 'RFC 9989 §4.7',
        recommendation: 'Set "t=y" while you test the policy, or remove the tag (n, the policy applies, is the default).',
        tag: 't',
      },
      {
        code: 'DMARC_PSD_INVALID',
        severity: 'warning',
        message: 'The psd= tag is "maybe"; it must be "y", "n" or "u".',
        rfc: 'RFC 9989 §4.7',
        recommendation: 'Remove the psd= tag: only public suffix operators publish psd=y, and u (let receivers decide) is the default.',
        tag: 'psd',
      },
    ]);
    expect(codes('v=DMARC1; p=reject; tt=y')).toEqual(['DMARC_UNKNOWN_TAG']);
  });

  it('reports each of pct, rf and ri as removed by DMARCbis, with what to do instead', () => {
    const record = parseDmarcRecord('v=DMARC1; p=reject; ri=3600; rf=afrf; pct=100');
    expect(record.findings.map((finding) => finding.message)).toEqual([
      'The pct= tag is removed in DMARCbis (RFC 9989): receivers that follow it ignore the tag; use t=y for testing instead.',
      'The rf= tag is removed in DMARCbis (RFC 9989): receivers that follow it ignore the tag; AFRF, the only format it could name, is what receivers send.',
      'The ri= tag is removed in DMARCbis (RFC 9989): receivers that follow it ignore the tag; receivers choose the aggregate report interval themselves, usually a day.',
    ]);
    expect(record).toMatchObject({ pct: 100, reportFormat: ['afrf'], reportInterval: 3600 });
  });

  it('rejects report addresses that are not URIs', () => {
    const record = parseDmarcRecord('v=DMARC1; p=none; rua=dmarc@example.com, mailto:ok@example.com');
    expect(record.findings.map((finding) => finding.code)).toEqual(['DMARC_URI_INVALID']);
    expect(record.findings[0]?.message).toContain('mailto:');
    expect(record.rua.map((uri) => uri.address)).toEqual(['ok@example.com']);
  });
});

describe('parseDmarcUri', () => {
  it('parses size limits and rejects broken ones', () => {
    expect(parseDmarcUri('mailto:a@example.com!1g')).toMatchObject({ maxSizeBytes: 2 ** 30 });
    expect(parseDmarcUri('mailto:a@example.com!500')).toMatchObject({ maxSizeBytes: 500 });
    expect(typeof parseDmarcUri('mailto:a@example.com!lots')).toBe('string');
    expect(typeof parseDmarcUri('mailto:nobody')).toBe('string');
    expect(typeof parseDmarcUri('mailto:a@-bad-.example')).toBe('string');
    expect(parseDmarcUri('mailto:a%2Bdmarc@example.com')).toMatchObject({ address: 'a+dmarc@example.com' });
  });
});

describe('record discovery helpers', () => {
  it('tells which TXT records receivers consider', () => {
    expect(startsWithDmarcVersion('v=DMARC1; p=none')).toBe(true);
    expect(startsWithDmarcVersion('v = DMARC1 ;p=none')).toBe(true);
    expect(startsWithDmarcVersion('v=DMARC1')).toBe(true);
    expect(startsWithDmarcVersion('v=DMARC10; p=none')).toBe(false);
    expect(startsWithDmarcVersion('p=none; v=DMARC1')).toBe(false);
    expect(mentionsDmarcVersion('p=none; v=DMARC1')).toBe(true);
    expect(mentionsDmarcVersion('v=spf1 -all')).toBe(false);
  });
});

describe('organizationalDomain (RFC 7489 §3.2)', () => {
  it('uses the public suffix list, private section included', () => {
    expect(organizationalDomain('mail.sub.example.co.uk')).toBe('example.co.uk');
    expect(organizationalDomain('example.co.uk')).toBe('example.co.uk');
    expect(organizationalDomain('a.b.example.com')).toBe('example.com');
    expect(organizationalDomain('alice.github.io')).toBe('alice.github.io');
    expect(organizationalDomain('co.uk')).toBe('co.uk');
  });

  it('tells a public suffix from a registrable name', () => {
    expect(isPublicSuffix('co.uk')).toBe(true);
    expect(isPublicSuffix('github.io')).toBe(true);
    expect(isPublicSuffix('example.co.uk')).toBe(false);
    expect(isPublicSuffix('psdyes.test')).toBe(false);
  });
});
