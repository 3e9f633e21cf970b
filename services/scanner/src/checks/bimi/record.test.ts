import { describe, expect, it } from 'vitest';
import { isBimiRecord, looksLikeBimiRecord, parseBimiRecord } from './record.js';

const codes = (text: string) => parseBimiRecord(text).findings.map((finding) => finding.code);

describe('the BIMI assertion record (draft-brand-indicators-for-message-identification §4.3)', () => {
  it('tells records receivers read from look-alikes they discard', () => {
    expect(isBimiRecord('v=BIMI1; l=https://a.example/l.svg')).toBe(true);
    expect(isBimiRecord('v = BIMI1;l=')).toBe(true);
    expect(isBimiRecord('v=BIMI1')).toBe(true);
    expect(isBimiRecord('v=bimi1; l=')).toBe(false);
    expect(isBimiRecord('v=BIMI10; l=')).toBe(false);
    expect(isBimiRecord('l=; v=BIMI1')).toBe(false);
    expect(looksLikeBimiRecord('v=bimi1; l=')).toBe(true);
    expect(looksLikeBimiRecord('l=https://a.example/l.svg; v=BIMI1')).toBe(true);
    expect(looksLikeBimiRecord('v=spf1 -all')).toBe(false);
  });

  it('reads the logo and certificate locations', () => {
    const record = parseBimiRecord('v=BIMI1; l=https://brand.example/bimi/logo.svg; a=https://brand.example/bimi/vmc.pem;');
    expect(record.findings).toEqual([]);
    expect(record.logoUrl?.href).toBe('https://brand.example/bimi/logo.svg');
    expect(record.authorityUrl?.href).toBe('https://brand.example/bimi/vmc.pem');
    expect(record.declined).toBe(false);
  });

  it.each(['v=BIMI1; l=; a=;', 'v=BIMI1; l=', 'v=BIMI1;l=;a=; lps=true'])('reads %j as a declination', (text) => {
    expect(parseBimiRecord(text)).toMatchObject({ declined: true, logoUrl: null, authorityUrl: null, findings: [] });
  });

  it.each([
    ['v=BIMI1; a=https://brand.example/vmc.pem', 'BIMI_RECORD_INVALID'],
    ['v=BIMI1; l=https://brand.example/a.svg; l=https://brand.example/b.svg', 'BIMI_RECORD_INVALID'],
    ['v=BIMI1; l=https://brand.example/a.svg;; a=', 'BIMI_RECORD_INVALID'],
    ['v=BIMI1; l=http://brand.example/logo.svg', 'BIMI_LOGO_URL_INVALID'],
    ['v=BIMI1; l=https://brand.example/logo.png', 'BIMI_LOGO_URL_INVALID'],
    ['v=BIMI1; l=https://brand.example/a.svg,https://brand.example/b.svg', 'BIMI_LOGO_URL_INVALID'],
    ['v=BIMI1; l=logo.svg', 'BIMI_LOGO_URL_INVALID'],
    ['v=BIMI1; l=https://brand.example/logo.svg; a=http://brand.example/vmc.pem', 'BIMI_AUTHORITY_URL_INVALID'],
    ['v=BIMI1; l=https://brand.example/logo.svg; a=https://192.0.2.1/vmc.pem', 'BIMI_AUTHORITY_URL_INVALID'],
    ['v=BIMI1; l=; a=https://brand.example/vmc.pem', 'BIMI_LOGO_URL_MISSING'],
    ['v=BIMI1; l=https://brand.example/logo.svg; avp=avatar', 'BIMI_TAG_INVALID'],
    ['v=BIMI1; l=https://brand.example/logo.svg; lps=yes', 'BIMI_TAG_INVALID'],
    ['v=BIMI1; l=https://brand.example/logo.svg; s=brand', 'BIMI_UNKNOWN_TAG'],
  ])('finds the fault in %j', (text, code) => {
    expect(codes(text)).toContain(code);
  });

  it('does not take an empty l= with a certificate for a declination', () => {
    expect(parseBimiRecord('v=BIMI1; l=; a=https://brand.example/vmc.pem').declined).toBe(false);
  });
});
