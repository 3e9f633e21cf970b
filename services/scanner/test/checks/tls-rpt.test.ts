import { checkDetailsByType } from '@sendwell/contracts';
import { startDnsServer, type TestDnsServer } from '@sendwell/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tlsRptCheck } from '../../src/checks/tls-rpt/tls-rpt.check.js';
import type { CheckResult } from '../../src/checks/types.js';
import { checkContext } from './harness.js';

/** The TLS-RPT check against the fixture DNS server. */

let dns: TestDnsServer;

const GOOD = 'v=TLSRPTv1; rua=mailto:tls-reports@good.test,https://reports.example.net/v1/tlsrpt';

beforeAll(async () => {
  dns = await startDnsServer({
    records: {
      '_smtp._tls.good.test': { TXT: [GOOD, 'google-site-verification=abc123'] },
      '_smtp._tls.spaced.test': { TXT: ['v=TLSRPTv1;rua=mailto:a@spaced.test , mailto:b@reports.example.net;'] },
      'missing.test': { MX: [{ priority: 10, exchange: 'mx.missing.test' }] },
      '_smtp._tls.two.test': { TXT: ['v=TLSRPTv1; rua=mailto:a@two.test', 'v=TLSRPTv1; rua=mailto:b@two.test'] },
      '_smtp._tls.badrua.test': { TXT: ['v=TLSRPTv1; rua=mailto:ok@badrua.test,tls@badrua.test'] },
      '_smtp._tls.http.test': { TXT: ['v=TLSRPTv1; rua=http://reports.example.net/tlsrpt'] },
      '_smtp._tls.norua.test': { TXT: ['v=TLSRPTv1; ruf=mailto:tls@norua.test'] },
      '_smtp._tls.ignored.test': { TXT: ['v=tlsrptv1; rua=mailto:tls@ignored.test'] },
    },
    behaviours: { 'dnsdown.test': 'timeout' },
  });
});

afterAll(async () => {
  await dns?.close();
});

async function scan(domain: string, dnsTimeoutMs = 2_000): Promise<CheckResult> {
  const result = await tlsRptCheck(checkContext(domain, dns, { dnsTimeoutMs, config: { timeoutMs: 5_000 } }));
  expect(() => checkDetailsByType.tls_rpt.parse(result.details)).not.toThrow();
  return result;
}

const codes = (result: CheckResult) => result.details.findings.map((finding) => finding.code);

describe('tlsRptCheck', () => {
  it('is valid with a mailto: and an https: destination (other TXT records at the name ignored)', async () => {
    const result = await scan('good.test');
    expect(result.status).toBe('valid');
    expect(result.details.findings).toEqual([]);
    expect(result.details).toMatchObject({ record: GOOD, records: [GOOD], rua: ['mailto:tls-reports@good.test', 'https://reports.example.net/v1/tlsrpt'] });
    expect(result.value).toBe('mailto:tls-reports@good.test, https://reports.example.net/v1/tlsrpt');
    expect(result.message).toBe('Senders report TLS connection failures to mailto:tls-reports@good.test, https://reports.example.net/v1/tlsrpt.');
    expect(result.recommendation).toBeNull();
  });

  it('reads a record without blanks after ";", blanks around "," and a trailing ";"', async () => {
    const result = await scan('spaced.test');
    expect(result.status).toBe('valid');
    expect(result.details['rua']).toEqual(['mailto:a@spaced.test', 'mailto:b@reports.example.net']);
  });

  it('is missing without a record, with a warning', async () => {
    const result = await scan('missing.test');
    expect(result.status).toBe('missing');
    expect(result.value).toBeNull();
    expect(result.message).toBe('No TLS-RPT record is published for missing.test.');
    expect(result.details.findings).toMatchObject([{ code: 'TLS_RPT_MISSING', severity: 'warning', rfc: 'RFC 8460 §3' }]);
    expect(result.recommendation).toContain('"v=TLSRPTv1; rua=mailto:tls-reports@missing.test"');
    expect(result.details['rua']).toEqual([]);
  });

  it('is an error with two records, which void TLS-RPT', async () => {
    const result = await scan('two.test');
    expect(result.status).toBe('error');
    expect(codes(result)).toEqual(['TLS_RPT_MULTIPLE_RECORDS']);
    expect(result.message).toBe('_smtp._tls.two.test has 2 TLS-RPT records, so senders send no reports at all.');
    expect(result.details['records']).toHaveLength(2);
    expect(result.details['record']).toBeNull();
  });

  it('is an error naming a rua destination that is not a URI, and lists every destination', async () => {
    const result = await scan('badrua.test');
    expect(result.status).toBe('error');
    expect(codes(result)).toEqual(['TLS_RPT_RUA_INVALID']);
    expect(result.message).toBe('The rua destination "tls@badrua.test" is an address, not a URI: it needs the "mailto:" prefix, so senders cannot send reports to it.');
    expect(result.details.findings[0]).toMatchObject({ severity: 'error', rfc: 'RFC 8460 §3', uri: 'tls@badrua.test' });
    expect(result.details['rua']).toEqual(['mailto:ok@badrua.test', 'tls@badrua.test']);
  });

  it('is an error for an http: destination', async () => {
    const result = await scan('http.test');
    expect(result.status).toBe('error');
    expect(codes(result)).toEqual(['TLS_RPT_RUA_INVALID']);
    expect(result.message).toContain('reports are only sent over https:');
  });

  it('is an error without rua=, and notes the unknown field', async () => {
    const result = await scan('norua.test');
    expect(result.status).toBe('error');
    expect(result.details.findings.map((f) => [f.code, f.severity])).toEqual([
      ['TLS_RPT_UNKNOWN_FIELD', 'info'],
      ['TLS_RPT_RUA_MISSING', 'error'],
    ]);
    expect(result.message).toBe('The TLS-RPT record has no rua= field, so senders have nowhere to send reports.');
  });

  it('is an error for a record senders skip (version in the wrong case)', async () => {
    const result = await scan('ignored.test');
    expect(result.status).toBe('error');
    expect(codes(result)).toEqual(['TLS_RPT_RECORD_INVALID']);
    expect(result.message).toContain('does not start with exactly "v=TLSRPTv1"');
  });

  it('is unknown when the lookup times out', async () => {
    const result = await scan('dnsdown.test', 300);
    expect(result.status).toBe('unknown');
    expect(result.message).toBe('TLS-RPT could not be checked: the DNS lookup of _smtp._tls.dnsdown.test timed out.');
  });
});
