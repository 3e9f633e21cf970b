import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { REPORT_LIMITS } from '../limits.js';
import { readTlsReport } from './read-tls-report.js';
import type { TlsReport } from './types.js';
import { refusal } from '../refusal-testing.js';

const fixture = (name: string) => readFileSync(new URL(`../../../test/fixtures/tls-rpt/${name}`, import.meta.url));
const JSON_TYPE = 'application/tlsrpt+json';

function withPolicies(count: number, failuresEach = 0): Uint8Array {
  const policy = {
    policy: { 'policy-type': 'sts', 'policy-domain': 'example.com' },
    summary: { 'total-successful-session-count': 1, 'total-failure-session-count': 0 },
    'failure-details': Array.from({ length: failuresEach }, () => ({ 'result-type': 'certificate-expired', 'failed-session-count': 1 })),
  };
  const report = JSON.parse(fixture('google.json').toString()) as Record<string, unknown>;
  report.policies = Array.from({ length: count }, () => policy);
  return Buffer.from(JSON.stringify(report));
}

const rfcExample: TlsReport = {
  organization: 'Company-X',
  contact: 'sts-reporting@company-x.example',
  reportId: '5065427c-23d3-47ca-b6e0-946ea0e8c4be',
  period: { start: new Date('2016-04-01T00:00:00Z'), end: new Date('2016-04-01T23:59:59Z') },
  policies: [
    {
      type: 'sts',
      domain: 'company-y.example',
      strings: ['version: STSv1', 'mode: testing', 'mx: *.mail.company-y.example', 'max_age: 86400'],
      mxHosts: ['*.mail.company-y.example'],
      successful: 5326,
      failed: 303,
      failures: [
        {
          resultType: 'certificate-expired',
          sendingMtaIp: '2001:db8:abcd:0012::1',
          receivingMx: 'mx1.mail.company-y.example',
          receivingHelo: null,
          receivingIp: null,
          count: 100,
          additionalInformation: null,
          reasonCode: null,
        },
        {
          resultType: 'starttls-not-supported',
          sendingMtaIp: '2001:db8:abcd:0013::1',
          receivingMx: 'mx2.mail.company-y.example',
          receivingHelo: null,
          receivingIp: '203.0.113.56',
          count: 200,
          additionalInformation: 'https://reports.company-x.example/report_info?id=5065427c-23d3#StarttlsNotSupported',
          reasonCode: null,
        },
        {
          resultType: 'validation-failure',
          sendingMtaIp: '198.51.100.62',
          receivingMx: 'mx-backup.mail.company-y.example',
          receivingHelo: null,
          receivingIp: '203.0.113.58',
          count: 3,
          additionalInformation: null,
          reasonCode: 'X509_V_ERR_PROXY_PATH_LENGTH_EXCEEDED',
        },
      ],
    },
  ],
};

describe('readTlsReport', () => {
  it('reads the RFC 8460 §4.8 example', () => {
    expect(readTlsReport(fixture('rfc8460-example.json'), JSON_TYPE)).toEqual(rfcExample);
  });

  it('reads gzip by content type, and by magic when the sender labels it JSON', () => {
    const packed = gzipSync(fixture('rfc8460-example.json'));
    expect(readTlsReport(packed, 'application/tlsrpt+gzip')).toEqual(rfcExample);
    expect(readTlsReport(packed, 'application/tlsrpt+json; charset=utf-8')).toEqual(rfcExample);
  });

  it('refuses damaged gzip', () => {
    expect(refusal(() => readTlsReport(Buffer.from('not gzip at all'), 'application/tlsrpt+gzip')).code).toBe('MALFORMED_CONTAINER');
  });

  it("reads Google's report, with MX hosts as an array", () => {
    expect(readTlsReport(fixture('google.json'), JSON_TYPE)).toEqual({
      organization: 'Google Inc.',
      contact: 'smtp-tls-reporting@google.com',
      reportId: '2024-03-10T00:00:00Z_example.com',
      period: { start: new Date('2024-03-10T00:00:00Z'), end: new Date('2024-03-10T23:59:59Z') },
      policies: [
        {
          type: 'sts',
          domain: 'example.com',
          strings: ['version: STSv1', 'mode: enforce', 'mx: mx1.example.com', 'mx: mx2.example.com', 'max_age: 604800'],
          mxHosts: ['mx1.example.com', 'mx2.example.com'],
          successful: 1284,
          failed: 0,
          failures: [],
        },
      ],
    } satisfies TlsReport);
  });

  it('tolerates what older senders do: quoted counts, MX-host objects, one policy string, extra fields, unknown result types', () => {
    expect(readTlsReport(fixture('older-senders.json'), JSON_TYPE)).toEqual({
      organization: 'Mail Provider B.V.',
      contact: null,
      reportId: 'mp-133f2b0a',
      period: { start: new Date('2019-04-27T22:00:00Z'), end: new Date('2019-04-28T22:00:00Z') },
      policies: [
        {
          type: 'tlsa',
          domain: 'example.com',
          strings: ['_25._tcp.mx.Example.COM. IN TLSA 3 1 1 8A9A70596E869BED72C69D97A8895DFA'],
          mxHosts: ['mx.example.com'],
          successful: 17,
          failed: 4,
          failures: [
            {
              resultType: 'tlsa-invalid',
              sendingMtaIp: '192.0.2.10',
              receivingMx: 'mx.example.com',
              receivingHelo: 'mx.example.com',
              receivingIp: '198.51.100.25',
              count: 3,
              additionalInformation: null,
              reasonCode: 'dane-ee-mismatch',
            },
            {
              resultType: 'sts-policy-expired',
              sendingMtaIp: null,
              receivingMx: null,
              receivingHelo: null,
              receivingIp: null,
              count: 1,
              additionalInformation: null,
              reasonCode: null,
            },
          ],
        },
        { type: 'no-policy-found', domain: 'mail.example.com', strings: [], mxHosts: [], successful: 2, failed: 0, failures: [] },
      ],
    } satisfies TlsReport);
  });

  it('refuses malformed JSON', () => {
    const cut = fixture('rfc8460-example.json').subarray(0, 200);
    expect(refusal(() => readTlsReport(cut, JSON_TYPE)).code).toBe('MALFORMED_JSON');
  });

  it('refuses deep nesting before JSON.parse, however deep', () => {
    for (const depth of [33, 100_000]) {
      const deep = Buffer.from(`{"policies":${'['.repeat(depth)}${']'.repeat(depth)}}`);
      expect(refusal(() => readTlsReport(deep, JSON_TYPE)).code).toBe('MALFORMED_JSON');
    }
    // Brackets inside strings are text, not nesting.
    const quoted = JSON.parse(fixture('google.json').toString()) as Record<string, unknown>;
    quoted['report-id'] = `${'['.repeat(100)}"\\"{{{`;
    expect(readTlsReport(Buffer.from(JSON.stringify(quoted)), JSON_TYPE).reportId).toBe(quoted['report-id']);
  });

  it('refuses too many policies or failure details, before validating them', () => {
    const limits = { ...REPORT_LIMITS, tlsPolicies: 3, tlsFailureDetails: 5 };
    expect(readTlsReport(withPolicies(3), JSON_TYPE, limits).policies).toHaveLength(3);
    expect(refusal(() => readTlsReport(withPolicies(4), JSON_TYPE, limits)).code).toBe('TOO_MANY_RECORDS');
    expect(refusal(() => readTlsReport(withPolicies(2, 3), JSON_TYPE, limits)).message).toBe('The TLS report has more than 5 failure details.');
  });

  it('refuses a body over the input cap', () => {
    const limits = { ...REPORT_LIMITS, inputBytes: 100 };
    expect(refusal(() => readTlsReport(fixture('google.json'), JSON_TYPE, limits)).code).toBe('TOO_LARGE');
  });

  it('refuses a wrong shape with a message naming the field', () => {
    const report = JSON.parse(fixture('rfc8460-example.json').toString()) as { policies: { policy: Record<string, unknown> }[] };
    report.policies[0]!.policy['policy-type'] = 'dane';
    const wrongType = refusal(() => readTlsReport(Buffer.from(JSON.stringify(report)), JSON_TYPE));
    expect(wrongType.code).toBe('NOT_A_TLS_REPORT');
    expect(wrongType.message).toContain('policies.0.policy.policy-type');

    const badDate = fixture('google.json').toString().replace('2024-03-10T00:00:00Z"', '10 March 2024"');
    expect(refusal(() => readTlsReport(Buffer.from(badDate), JSON_TYPE)).message).toBe(
      'This is not an RFC 8460 TLS report: date-range.start-datetime must be an RFC 3339 date-time.',
    );
    expect(refusal(() => readTlsReport(Buffer.from('[1,2]'), JSON_TYPE)).message).toMatch(/^This is not an RFC 8460 TLS report: document /);
  });
});
