import { checkDetailsByType } from '@sendwell/contracts';
import {
  createTestCa,
  issueCert,
  startDnsServer,
  startHttpsServer,
  validity,
  type DnsFixtureRecords,
  type HttpsFixtureResponse,
  type TestCa,
  type TestCertificate,
  type TestDnsServer,
  type TestHttpsServer,
} from '@sendwell/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mtaStsCheck } from '../../src/checks/mta-sts/mta-sts.check.js';
import type { CheckResult } from '../../src/checks/types.js';
import { checkContext } from './harness.js';

/** The MTA-STS check against the fixture DNS server and a real HTTPS policy host on loopback. */

const PATH = '/.well-known/mta-sts.txt';
const RECORD = 'v=STSv1; id=20250101000000';

let dns: TestDnsServer;
let web: TestHttpsServer;
let ca: TestCa;
let certs: Record<'trusted' | 'untrusted' | 'wrongName' | 'expired', TestCertificate>;

function policy(mode: string, mx: string[], maxAge = 604_800, eol = '\r\n'): string {
  return [`version: STSv1`, `mode: ${mode}`, ...mx.map((pattern) => `mx: ${pattern}`), `max_age: ${maxAge}`, ''].join(eol);
}

/** Each scenario: its MX hosts, its `_mta-sts` TXT records, and what its policy host serves. */
interface Scenario {
  mx?: string[];
  txt?: string[];
  /** The policy host's A record; default 127.0.0.1, null for none. */
  address?: string | null;
  cert?: keyof typeof certs;
  response?: HttpsFixtureResponse;
}

const GOOD_POLICY = policy('enforce', ['mx1.good.test', '*.backup.good.test']);

const scenarios: Record<string, Scenario> = {
  'good.test': { mx: ['mx1.good.test', 'mail.backup.good.test'], response: { body: GOOD_POLICY } },
  'mismatch.test': { mx: ['mx1.mismatch.test', 'deep.relay.mismatch.test', 'mx.elsewhere.example'], response: { body: policy('enforce', ['*.mismatch.test']) } },
  'testing.test': { mx: ['mx.testing.test', 'stray.elsewhere.example'], response: { body: policy('testing', ['mx.testing.test'], 604_800, '\n') } },
  'none.test': { mx: ['mx.none.test'], response: { body: 'version: STSv1\nmode: none\nmax_age: 86400\n' } },
  'short.test': { mx: ['mx.short.test'], response: { body: policy('enforce', ['mx.short.test'], 3600) } },
  'broken.test': { mx: ['mx.broken.test'], response: { body: 'Version: STSv1\nmode: strict\nmx: mx_1.broken.test\nmax_age: 99999999999\n' } },
  'untrusted.test': { mx: ['mx.untrusted.test'], cert: 'untrusted', response: { body: policy('enforce', ['mx.untrusted.test']) } },
  'wrongname.test': { mx: ['mx.wrongname.test'], cert: 'wrongName', response: { body: policy('enforce', ['mx.wrongname.test']) } },
  'expired.test': { mx: ['mx.expired.test'], cert: 'expired', response: { body: policy('enforce', ['mx.expired.test']) } },
  'nopolicy.test': { mx: ['mx.nopolicy.test'] },
  'redirect.test': { mx: ['mx1.good.test'], response: { redirect: `https://mta-sts.good.test${PATH}` } },
  'html.test': { mx: ['mx.html.test'], response: { contentType: 'text/html; charset=utf-8', body: `<html><body><pre>${policy('enforce', ['mx.html.test'])}</pre></body></html>` } },
  'large.test': { mx: ['mx.large.test'], response: { body: `${policy('enforce', ['mx.large.test'])}${`x-padding: ${'x'.repeat(100)}\r\n`.repeat(700)}` } },
  'slow.test': { mx: ['mx.slow.test'], response: { body: policy('enforce', ['mx.slow.test']), delayMs: 8_000 } },
  'refused.test': { mx: ['mx.refused.test'], address: '127.0.0.2' },
  'nohost.test': { mx: ['mx.nohost.test'], address: null },
  'private.test': { mx: ['mx.private.test'], address: '10.0.0.5' },
  'two.test': { mx: ['mx.two.test'], txt: [RECORD, 'v=STSv1; id=20250202000000'], response: { body: policy('enforce', ['mx.two.test']) } },
  'badid.test': { mx: ['mx.badid.test'], txt: ['v=STSv1; id=2025-01-01'], response: { body: policy('enforce', ['mx.badid.test']) } },
  'ignored.test': { mx: ['mx.ignored.test'], txt: ['v=stsv1; id=20250101000000'] },
  'nullmx.test': { mx: ['.'], response: { body: policy('enforce', ['mx.nullmx.test']) } },
  'norecord.test': { mx: ['mx.norecord.test'], txt: ['v=spf1 -all'] },
};

beforeAll(async () => {
  const [testCa, otherCa] = await Promise.all([createTestCa(), createTestCa({ commonName: 'Unknown CA' })]);
  ca = testCa;
  const trustedNames = Object.keys(scenarios).map((domain) => `mta-sts.${domain}`);
  const [trusted, untrusted, wrongName, expired] = await Promise.all([
    issueCert(ca, { hostnames: trustedNames }),
    issueCert(otherCa, { hostnames: ['mta-sts.untrusted.test'] }),
    issueCert(ca, { hostnames: ['mta-sts.other.test', 'other.test'] }),
    issueCert(ca, { hostnames: ['mta-sts.expired.test'], ...validity.expiredDaysAgo(3) }),
  ]);
  certs = { trusted, untrusted, wrongName, expired };

  const records: Record<string, DnsFixtureRecords> = {};
  const hosts: Parameters<typeof startHttpsServer>[0]['hosts'] = {};
  for (const [domain, scenario] of Object.entries(scenarios)) {
    records[domain] = { MX: (scenario.mx ?? []).map((exchange, index) => ({ priority: 10 * (index + 1), exchange })) };
    records[`_mta-sts.${domain}`] = { TXT: scenario.txt ?? [RECORD] };
    if (scenario.address !== null) records[`mta-sts.${domain}`] = { A: [scenario.address ?? '127.0.0.1'] };
    hosts[`mta-sts.${domain}`] = { certificate: certs[scenario.cert ?? 'trusted'], paths: scenario.response ? { [PATH]: scenario.response } : {} };
  }
  // The record is published, but the policy host's address lookup times out.
  records['_mta-sts.hostdown.test'] = { TXT: [RECORD] };
  records['hostdown.test'] = { MX: [{ priority: 10, exchange: 'mx.hostdown.test' }] };
  dns = await startDnsServer({ records, behaviours: { 'dnsdown.test': 'timeout', 'mta-sts.hostdown.test': 'timeout' } });
  web = await startHttpsServer({ hosts });
});

afterAll(async () => {
  await web?.close();
  await dns?.close();
});

async function scan(domain: string, options: { allowLoopback?: boolean; timeoutMs?: number; dnsTimeoutMs?: number } = {}): Promise<CheckResult> {
  const result = await mtaStsCheck(
    checkContext(domain, dns, {
      dnsTimeoutMs: options.dnsTimeoutMs ?? 2_000,
      config: { tlsExtraCa: ca.cert, httpsPort: web.port, timeoutMs: options.timeoutMs ?? 10_000, outbound: { allowLoopback: options.allowLoopback ?? true } },
    }),
  );
  expect(() => checkDetailsByType.mta_sts.parse(result.details)).not.toThrow();
  return result;
}

const codes = (result: CheckResult) => result.details.findings.map((finding) => finding.code);
const finding = (result: CheckResult, code: string) => result.details.findings.find((candidate) => candidate.code === code);
const requestsTo = (host: string) => web.requests.filter((request) => request.serverName === host);

describe('mtaStsCheck', () => {
  it('is valid for an enforced policy that covers every MX host, fetched with SNI from the vetted address', async () => {
    const result = await scan('good.test');
    expect(result.status).toBe('valid');
    expect(result.details.findings).toEqual([]);
    expect(result.value).toBe('enforce, max_age 604800');
    expect(result.message).toBe('MTA-STS is enforced for all 2 MX hosts, and senders keep the policy for 7 days.');
    expect(result.recommendation).toBeNull();
    expect(result.details).toMatchObject({
      record: RECORD,
      records: [RECORD],
      id: '20250101000000',
      policyUrl: `https://mta-sts.good.test${PATH}`,
      policyFetch: { address: '127.0.0.1', httpStatus: 200, contentType: 'text/plain; charset=utf-8', error: null },
      policy: { version: 'STSv1', mode: 'enforce', maxAge: 604_800, mx: ['mx1.good.test', '*.backup.good.test'] },
      mxCoverage: [
        { exchange: 'mx1.good.test', covered: true, pattern: 'mx1.good.test' },
        { exchange: 'mail.backup.good.test', covered: true, pattern: '*.backup.good.test' },
      ],
    });
    const [request] = requestsTo('mta-sts.good.test').slice(-1);
    expect(request).toMatchObject({ method: 'GET', path: PATH, hostHeader: `mta-sts.good.test:${web.port}`, status: 200 });
  });

  it('is an error naming each MX host the enforced policy does not cover (a wildcard matches one label only)', async () => {
    const result = await scan('mismatch.test');
    expect(result.status).toBe('error');
    expect(codes(result)).toEqual(['MTA_STS_MX_NOT_COVERED', 'MTA_STS_MX_NOT_COVERED']);
    expect(result.details.findings.map((f) => [f.severity, f['exchange'], f.rfc])).toEqual([
      ['error', 'deep.relay.mismatch.test', 'RFC 8461 §4.1'],
      ['error', 'mx.elsewhere.example', 'RFC 8461 §4.1'],
    ]);
    expect(result.message).toBe('The MX host deep.relay.mismatch.test matches no mx pattern of the enforced policy, so senders refuse to deliver to it.');
    expect(result.recommendation).toBe('Add "mx: deep.relay.mismatch.test" (or a "*." pattern covering it) to the policy and change the record\'s id.');
    expect(result.details['mxCoverage']).toEqual([
      { exchange: 'mx1.mismatch.test', covered: true, pattern: '*.mismatch.test' },
      { exchange: 'deep.relay.mismatch.test', covered: false, pattern: null },
      { exchange: 'mx.elsewhere.example', covered: false, pattern: null },
    ]);
  });

  it('warns in testing mode, and an uncovered MX host is only a warning there (LF line endings)', async () => {
    const result = await scan('testing.test');
    expect(result.status).toBe('warning');
    expect(result.details.findings.map((f) => [f.code, f.severity])).toEqual([
      ['MTA_STS_MODE_TESTING', 'warning'],
      ['MTA_STS_MX_NOT_COVERED', 'warning'],
    ]);
    expect(result.message).toMatch(/^The MTA-STS policy is in testing mode/);
    expect(finding(result, 'MTA_STS_MX_NOT_COVERED')?.message).toContain('stray.elsewhere.example');
    expect(result.value).toBe('testing, max_age 604800');
  });

  it('warns that mode none withdraws the policy (no mx needed)', async () => {
    const result = await scan('none.test');
    expect(result.status).toBe('warning');
    expect(codes(result)).toEqual(['MTA_STS_MODE_NONE']);
    expect(result.details.findings[0]).toMatchObject({ severity: 'warning', rfc: 'RFC 8461 §8.3' });
  });

  it('warns about a max_age under a day', async () => {
    const result = await scan('short.test');
    expect(result.status).toBe('warning');
    expect(codes(result)).toEqual(['MTA_STS_MAX_AGE_SHORT']);
    expect(result.message).toContain('3600 seconds');
    expect(result.details.findings[0]?.rfc).toBe('RFC 8461 §3.2');
  });

  it('is an error for a policy file that does not parse, with every fault named', async () => {
    const result = await scan('broken.test');
    expect(result.status).toBe('error');
    expect(codes(result)).toEqual([
      'MTA_STS_POLICY_SYNTAX',
      'MTA_STS_POLICY_VERSION_INVALID',
      'MTA_STS_POLICY_MODE_INVALID',
      'MTA_STS_POLICY_MAX_AGE_INVALID',
      'MTA_STS_POLICY_MX_INVALID',
    ]);
    expect(result.details['policy']).toEqual({ version: null, mode: null, maxAge: null, mx: [] });
  });

  it.each([
    ['untrusted.test', 'MTA_STS_POLICY_CERT_UNTRUSTED', /does not chain to a trusted root \(UNABLE_TO_VERIFY_LEAF_SIGNATURE\)/],
    ['wrongname.test', 'MTA_STS_POLICY_CERT_NAME_MISMATCH', /not issued for that name/],
    ['expired.test', 'MTA_STS_POLICY_CERT_EXPIRED', /is expired \(CERT_HAS_EXPIRED\)/],
  ])('is an error when the certificate of the policy host is bad (%s), and sends no request', async (domain, code, text) => {
    const before = requestsTo(`mta-sts.${domain}`).length;
    const result = await scan(domain);
    expect(result.status).toBe('error');
    expect(codes(result)).toEqual([code]);
    expect(result.message).toMatch(text);
    expect(result.details.findings[0]).toMatchObject({ severity: 'error', rfc: 'RFC 8461 §3.3', host: `mta-sts.${domain}` });
    expect(result.details['policy']).toBeNull();
    expect(web.serverNames).toContain(`mta-sts.${domain}`);
    expect(requestsTo(`mta-sts.${domain}`)).toHaveLength(before);
  });

  it('is an error when the policy is not found (404)', async () => {
    const result = await scan('nopolicy.test');
    expect(result.status).toBe('error');
    expect(codes(result)).toEqual(['MTA_STS_POLICY_HTTP_STATUS']);
    expect(result.message).toBe(`https://mta-sts.nopolicy.test${PATH} answers HTTP 404 instead of 200, so senders get no policy.`);
    expect(result.details['policyFetch']).toMatchObject({ httpStatus: 404 });
  });

  it('does not follow a redirect, and says so', async () => {
    const goodBefore = requestsTo('mta-sts.good.test').length;
    const result = await scan('redirect.test');
    expect(result.status).toBe('error');
    expect(codes(result)).toEqual(['MTA_STS_POLICY_REDIRECT']);
    expect(result.message).toBe(`https://mta-sts.redirect.test${PATH} answers with a redirect (HTTP 301 to https://mta-sts.good.test${PATH}), which senders do not follow, so they get no policy.`);
    expect(requestsTo('mta-sts.redirect.test')).toHaveLength(1);
    expect(requestsTo('mta-sts.good.test')).toHaveLength(goodBefore);
    expect(result.details['policy']).toBeNull();
  });

  it('is an error when the policy is not served as text/plain', async () => {
    const result = await scan('html.test');
    expect(result.status).toBe('error');
    expect(codes(result)).toEqual(['MTA_STS_POLICY_CONTENT_TYPE']);
    expect(result.message).toContain('served as text/html instead of text/plain');
    expect(result.details.findings[0]?.rfc).toBe('RFC 8461 §3.2');
  });

  it('is an error when the policy exceeds 64 KB, which senders do not read', async () => {
    const result = await scan('large.test');
    expect(result.status).toBe('error');
    expect(codes(result)).toEqual(['MTA_STS_POLICY_TOO_LARGE']);
  });

  it('is an error when the policy host does not answer within the timeout', async () => {
    const started = Date.now();
    const result = await scan('slow.test', { timeoutMs: 2_000 });
    expect(Date.now() - started).toBeLessThan(7_500);
    expect(result.status).toBe('error');
    expect(codes(result)).toEqual(['MTA_STS_POLICY_UNREACHABLE']);
    // Under a loaded CPU the handshake itself may be what runs out of time.
    expect(result.message).toMatch(/could not be fetched \(no (answer|TLS handshake) within \d+ ms\)/);
  });

  it('is an error when nothing listens on the policy host, without socket error text', async () => {
    const result = await scan('refused.test');
    expect(result.status).toBe('error');
    expect(codes(result)).toEqual(['MTA_STS_POLICY_UNREACHABLE']);
    expect(result.message).toBe(`The policy at https://mta-sts.refused.test${PATH} could not be fetched (connection refused), so senders apply no MTA-STS policy.`);
    expect(JSON.stringify(result)).not.toMatch(/ECONNREFUSED|127\.0\.0\.2:/);
  });

  it('is an error when the policy host has no address', async () => {
    const result = await scan('nohost.test');
    expect(result.status).toBe('error');
    expect(codes(result)).toEqual(['MTA_STS_POLICY_HOST_NOT_FOUND']);
  });

  it('refuses a private address: a finding, not a connection', async () => {
    const requests = web.requests.length;
    const handshakes = web.serverNames.length;
    for (const [domain, options] of [
      ['good.test', { allowLoopback: false }],
      ['private.test', {}],
    ] as const) {
      const result = await scan(domain, options);
      expect(result.status).toBe('warning');
      expect(codes(result)).toEqual(['MTA_STS_POLICY_PRIVATE_ADDRESS']);
      expect(result.details.findings[0]).toMatchObject({ severity: 'warning', rfc: 'RFC 6890', host: `mta-sts.${domain}` });
      expect(result.message).toMatch(new RegExp(`^mta-sts\\.${domain.replace('.', '\\.')} points at a private address \\((loopback|private network)\\), which the scanner does not connect to, so the policy was not fetched\\.$`));
      expect(result.details['policyFetch']).toMatchObject({ address: null, httpStatus: null });
    }
    expect(web.requests).toHaveLength(requests);
    expect(web.serverNames).toHaveLength(handshakes);
  });

  it('is missing without a record, with a warning that mail can be downgraded', async () => {
    const result = await scan('norecord.test');
    expect(result.status).toBe('missing');
    expect(result.value).toBeNull();
    expect(result.message).toBe('No MTA-STS policy is published for norecord.test.');
    expect(result.details.findings).toMatchObject([{ code: 'MTA_STS_MISSING', severity: 'warning', rfc: 'RFC 8461 §3.1' }]);
    expect(result.details.findings[0]?.message).toContain('downgrade it to plaintext');
    expect(result.recommendation).toContain('https://mta-sts.norecord.test/.well-known/mta-sts.txt');
  });

  it('is an error with two records, which void MTA-STS', async () => {
    const result = await scan('two.test');
    expect(result.status).toBe('error');
    expect(codes(result)).toEqual(['MTA_STS_MULTIPLE_RECORDS']);
    expect(result.message).toBe('_mta-sts.two.test has 2 MTA-STS records, so senders ignore MTA-STS for two.test altogether.');
    expect(result.details['records']).toHaveLength(2);
    expect(result.details['record']).toBeNull();
  });

  it('is an error for an invalid id, and still reports the policy', async () => {
    const result = await scan('badid.test');
    expect(result.status).toBe('error');
    expect(codes(result)).toEqual(['MTA_STS_ID_INVALID']);
    expect(result.details['id']).toBeNull();
    expect(result.details['policy']).toMatchObject({ mode: 'enforce' });
  });

  it('is an error for a record senders skip (version in the wrong case)', async () => {
    const result = await scan('ignored.test');
    expect(result.status).toBe('error');
    expect(codes(result)).toEqual(['MTA_STS_RECORD_INVALID']);
    expect(result.message).toContain('does not start with exactly "v=STSv1"');
  });

  it('ignores a null MX, and notes there is no MX host to protect', async () => {
    const result = await scan('nullmx.test');
    expect(result.status).toBe('valid');
    expect(result.details.findings.map((f) => [f.code, f.severity])).toEqual([['MTA_STS_NO_MX', 'info']]);
    expect(result.details['mxCoverage']).toEqual([]);
  });

  it('is unknown when the record lookup times out', async () => {
    const result = await scan('dnsdown.test', { dnsTimeoutMs: 300 });
    expect(result.status).toBe('unknown');
    expect(result.message).toBe('MTA-STS could not be checked: the DNS lookup of _mta-sts.dnsdown.test timed out.');
  });

  it("is unknown when the policy host's address lookup times out", async () => {
    const result = await scan('hostdown.test', { dnsTimeoutMs: 300 });
    expect(result.status).toBe('unknown');
    expect(codes(result)).toEqual(['MTA_STS_POLICY_HOST_LOOKUP_FAILED']);
    expect(result.message).toBe('The address lookup of mta-sts.hostdown.test timed out, so the policy was not fetched.');
    expect(result.details['id']).toBe('20250101000000');
  });
});
