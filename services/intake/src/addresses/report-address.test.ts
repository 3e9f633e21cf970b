import { describe, expect, it } from 'vitest';
import { dmarcRecordWithAddresses, issuedAddresses, parseReportRecipient, recordsToPublish } from './report-address.js';

const token = 'a1b2c3d4e5f60718293a4b5c';
const domain = 'reports.sendwell.test';

describe('parseReportRecipient', () => {
  it('reads the DMARC and TLS-RPT addresses, in any case', () => {
    expect(parseReportRecipient(`${token}@${domain}`, domain)).toEqual({ token, kind: 'dmarc' });
    expect(parseReportRecipient(`TLS-${token.toUpperCase()}@Reports.Sendwell.Test`, domain)).toEqual({ token, kind: 'tls' });
  });

  it('refuses every other address', () => {
    for (const address of [`${token}@other.test`, `${token}x@${domain}`, `postmaster@${domain}`, `@${domain}`, token, `${token}+tag@${domain}`, `tls-@${domain}`]) {
      expect(parseReportRecipient(address, domain), address).toBeNull();
    }
  });
});

describe('records to publish', () => {
  const addresses = issuedAddresses(token, domain, 'https://app.sendwell.test/');

  it('issues the addresses and the HTTPS URL', () => {
    expect(addresses).toEqual({
      dmarcAddress: `${token}@${domain}`,
      tlsRptAddress: `tls-${token}@${domain}`,
      tlsRptUrl: `https://app.sendwell.test/api/intake/tls-rpt/${token}`,
    });
  });

  it('merges our rua into the present record, keeping its tags and other destinations', () => {
    expect(dmarcRecordWithAddresses('v=DMARC1; p=quarantine; rua=mailto:dmarc@example.com; adkim=s', addresses.dmarcAddress, false)).toBe(
      `v=DMARC1; p=quarantine; rua=mailto:dmarc@example.com,mailto:${token}@${domain}; adkim=s`,
    );
    expect(dmarcRecordWithAddresses(`v=DMARC1; p=reject; rua=mailto:${token}@${domain}`, addresses.dmarcAddress, true)).toBe(
      `v=DMARC1; p=reject; rua=mailto:${token}@${domain}; ruf=mailto:${token}@${domain}`,
    );
  });

  it('proposes p=none with our rua when there is no record (or an unreadable one)', () => {
    expect(dmarcRecordWithAddresses(null, addresses.dmarcAddress, false)).toBe(`v=DMARC1; p=none; rua=mailto:${token}@${domain}`);
    expect(dmarcRecordWithAddresses('v=spf1 -all', addresses.dmarcAddress, true)).toBe(`v=DMARC1; p=none; rua=mailto:${token}@${domain}; ruf=mailto:${token}@${domain}; fo=1`);
  });

  it('gives the _dmarc and _smtp._tls records', () => {
    const records = recordsToPublish('example.com', addresses, null, false);
    expect(records.map((r) => r.host)).toEqual(['_dmarc.example.com', '_smtp._tls.example.com']);
    expect(records[1]!.value).toBe(`v=TLSRPTv1; rua=mailto:tls-${token}@${domain},https://app.sendwell.test/api/intake/tls-rpt/${token}`);
  });
});
