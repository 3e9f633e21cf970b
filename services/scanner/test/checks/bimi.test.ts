import { gzipSync } from 'node:zlib';
import { bimiDetailsSchema, findingSchema, type BimiDetails } from '@sendwell/contracts';
import {
  createTestCa,
  issueCert,
  issueMarkCertificate,
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
import { bimiCheck } from '../../src/checks/bimi/bimi.check.js';
import type { CheckResult } from '../../src/checks/types.js';
import { checkContext } from './harness.js';

/**
 * The BIMI check against the fixture DNS server and a real HTTPS host on loopback serving each
 * domain's logo and Mark Certificate, the certificates made at test time (issueMarkCertificate).
 */

type BimiResult = CheckResult<BimiDetails>;

const svg = (title: string, root = 'version="1.2" baseProfile="tiny-ps" viewBox="0 0 512 512"', body = '') =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns="http://www.w3.org/2000/svg" ${root}><title>${title}</title><rect width="512" height="512" fill="#1d4ed8"/><circle cx="256" cy="256" r="160" fill="#fff"/>${body}</svg>\n`;

const GOOD_SVG = svg('Good Brand');
const OTHER_SVG = svg('Another Brand');
const BAD_SVG = svg('Bad Brand', 'version="1.2" baseProfile="tiny" viewBox="0 0 200 100"', '<script>alert(document.cookie)</script>');
const LARGE_SVG = svg('Large Brand', undefined, `<desc>${'x'.repeat(40 * 1024)}</desc>`);
const ENFORCED = 'v=DMARC1; p=reject; rua=mailto:dmarc@example.net';

const logoUrl = (domain: string) => `https://bimi.${domain}/logo.svg`;
const pemUrl = (domain: string) => `https://bimi.${domain}/vmc.pem`;
const withCert = (domain: string) => `v=BIMI1; l=${logoUrl(domain)}; a=${pemUrl(domain)}`;
const logoOnly = (domain: string) => `v=BIMI1; l=${logoUrl(domain)};`;

type CertName = 'vmc' | 'cmc' | 'expired' | 'notBimi' | 'otherLogo' | 'wrongDomain' | 'brokenChain';

/** Each scenario: its BIMI and DMARC records and what its `bimi.{domain}` host serves. */
interface Scenario {
  bimi?: string[];
  dmarc?: string[] | null;
  logo?: HttpsFixtureResponse;
  pem?: CertName;
  /** The A record of bimi.{domain}; default 127.0.0.1. */
  address?: string;
  /** The HTTPS certificate of bimi.{domain}: from the trusted CA (default) or an unknown one. */
  tls?: 'trusted' | 'untrusted';
}

const scenarios: Record<string, Scenario> = {
  'good.test': { bimi: [withCert('good.test')], logo: { body: GOOD_SVG }, pem: 'vmc' },
  'cmc.test': { bimi: [withCert('cmc.test')], logo: { body: GOOD_SVG }, pem: 'cmc' },
  'nocert.test': { bimi: [logoOnly('nocert.test')], logo: { body: GOOD_SVG } },
  'svgz.test': { bimi: [logoOnly('svgz.test')], logo: { body: gzipSync(GOOD_SVG) } },
  'badsvg.test': { bimi: [logoOnly('badsvg.test')], logo: { body: BAD_SVG } },
  'pnone.test': { bimi: [logoOnly('pnone.test')], dmarc: ['v=DMARC1; p=none; rua=mailto:d@pnone.test'], logo: { body: GOOD_SVG } },
  'pct.test': { bimi: [logoOnly('pct.test')], dmarc: ['v=DMARC1; p=quarantine; pct=50'], logo: { body: GOOD_SVG } },
  'rejectpct.test': { bimi: [logoOnly('rejectpct.test')], dmarc: ['v=DMARC1; p=reject; pct=50'], logo: { body: GOOD_SVG } },
  'spnone.test': { bimi: [logoOnly('spnone.test')], dmarc: ['v=DMARC1; p=reject; sp=none'], logo: { body: GOOD_SVG } },
  'nodmarc.test': { bimi: [logoOnly('nodmarc.test')], dmarc: null, logo: { body: GOOD_SVG } },
  'missing.test': { bimi: ['v=spf1 -all'] },
  'declined.test': { bimi: ['v=BIMI1; l=; a=;'], logo: { body: GOOD_SVG } },
  'large.test': { bimi: [logoOnly('large.test')], logo: { body: LARGE_SVG } },
  'redirect.test': { bimi: [logoOnly('redirect.test')], logo: { redirect: logoUrl('good.test') } },
  'notfound.test': { bimi: [logoOnly('notfound.test')] },
  'badtls.test': { bimi: [logoOnly('badtls.test')], logo: { body: GOOD_SVG }, tls: 'untrusted' },
  'private.test': { bimi: [logoOnly('private.test')], address: '10.0.0.5' },
  'expired.test': { bimi: [withCert('expired.test')], logo: { body: GOOD_SVG }, pem: 'expired' },
  'notbimi.test': { bimi: [withCert('notbimi.test')], logo: { body: GOOD_SVG }, pem: 'notBimi' },
  'mismatch.test': { bimi: [withCert('mismatch.test')], logo: { body: GOOD_SVG }, pem: 'otherLogo' },
  'wrongdomain.test': { bimi: [withCert('wrongdomain.test')], logo: { body: GOOD_SVG }, pem: 'wrongDomain' },
  'brokenchain.test': { bimi: [withCert('brokenchain.test')], logo: { body: GOOD_SVG }, pem: 'brokenChain' },
  'two.test': { bimi: [logoOnly('two.test'), withCert('two.test')], logo: { body: GOOD_SVG } },
  'syntax.test': { bimi: ['v=BIMI1; l=http://bimi.syntax.test/logo.svg'], logo: { body: GOOD_SVG } },
  'sub.weakorg.test': { bimi: [logoOnly('sub.weakorg.test')], logo: { body: GOOD_SVG } },
  'dmarcdown.test': { bimi: [logoOnly('dmarcdown.test')], logo: { body: GOOD_SVG } },
  'ignored.test': { bimi: [`v=bimi1; l=${logoUrl('ignored.test')}`], logo: { body: GOOD_SVG } },
};

let dns: TestDnsServer;
let web: TestHttpsServer;
let ca: TestCa;
let pems: Record<CertName, string>;

beforeAll(async () => {
  const [testCa, otherCa, markRoot] = await Promise.all([createTestCa(), createTestCa({ commonName: 'Unknown CA' }), createTestCa({ commonName: 'Test Mark Root' })]);
  ca = testCa;
  const names = Object.keys(scenarios).map((domain) => `bimi.${domain}`);
  const [trustedTls, untrustedTls, vmc, cmc, expired, notBimi, otherLogo, wrongDomain, brokenChain] = await Promise.all([
    issueCert(ca, { hostnames: names }),
    issueCert(otherCa, { hostnames: ['bimi.badtls.test'] }),
    issueMarkCertificate(ca, { domains: ['good.test'], svg: GOOD_SVG }),
    issueMarkCertificate(markRoot, { domains: ['cmc.test'], svg: GOOD_SVG, markType: 'Prior Use Mark' }),
    issueMarkCertificate(ca, { domains: ['expired.test'], svg: GOOD_SVG, ...validity.expiredDaysAgo(3) }),
    issueCert(ca, { hostnames: ['notbimi.test'] }),
    issueMarkCertificate(ca, { domains: ['mismatch.test'], svg: OTHER_SVG }),
    issueMarkCertificate(ca, { domains: ['elsewhere.test'], svg: GOOD_SVG }),
    issueMarkCertificate(ca, { domains: ['brokenchain.test'], svg: GOOD_SVG }),
  ]);
  const tlsCerts: Record<'trusted' | 'untrusted', TestCertificate> = { trusted: trustedTls, untrusted: untrustedTls };
  pems = {
    vmc: `${vmc.cert}${ca.cert}`,
    cmc: `${cmc.cert}${markRoot.cert}`,
    expired: `${expired.cert}${ca.cert}`,
    notBimi: `${notBimi.cert}${ca.cert}`,
    otherLogo: `${otherLogo.cert}${ca.cert}`,
    wrongDomain: `${wrongDomain.cert}${ca.cert}`,
    // The file names an issuer that did not sign the leaf.
    brokenChain: `${brokenChain.cert}${otherCa.cert}`,
  };

  const records: Record<string, DnsFixtureRecords> = {};
  const hosts: Parameters<typeof startHttpsServer>[0]['hosts'] = {};
  for (const [domain, scenario] of Object.entries(scenarios)) {
    if (scenario.bimi) records[`default._bimi.${domain}`] = { TXT: scenario.bimi };
    if (scenario.dmarc !== null) records[`_dmarc.${domain}`] = { TXT: scenario.dmarc ?? [ENFORCED] };
    records[`bimi.${domain}`] = { A: [scenario.address ?? '127.0.0.1'] };
    const paths: Record<string, HttpsFixtureResponse> = {};
    if (scenario.logo) paths['/logo.svg'] = { contentType: 'image/svg+xml', ...scenario.logo };
    if (scenario.pem) paths['/vmc.pem'] = { contentType: 'application/x-pem-file', body: pems[scenario.pem] };
    hosts[`bimi.${domain}`] = { certificate: tlsCerts[scenario.tls ?? 'trusted'], paths };
  }
  // A subdomain without records of its own: BIMI and DMARC fall back to good.test.
  records['sub.good.test'] = { A: ['192.0.2.10'] };
  // A subdomain that enforces DMARC itself, under an organisational domain that does not.
  records['_dmarc.weakorg.test'] = { TXT: ['v=DMARC1; p=none'] };
  dns = await startDnsServer({ records, behaviours: { 'default._bimi.dnsdown.test': 'timeout', '_dmarc.dmarcdown.test': 'timeout' } });
  web = await startHttpsServer({ hosts });
}, 120_000);

afterAll(async () => {
  await web?.close();
  await dns?.close();
});

async function scan(domain: string): Promise<BimiResult> {
  const result = await bimiCheck(checkContext(domain, dns, { dnsTimeoutMs: 2_000, config: { tlsExtraCa: ca.cert, httpsPort: web.port, timeoutMs: 10_000 } }));
  expect(() => bimiDetailsSchema.parse(result.details)).not.toThrow();
  for (const finding of result.details.findings) expect(() => findingSchema.parse(finding)).not.toThrow();
  expect(result.type).toBe('bimi');
  return result;
}

const codes = (result: BimiResult) => result.details.findings.map((finding) => finding.code);
const problems = (result: BimiResult) => result.details.findings.filter((finding) => finding.severity !== 'info').map((finding) => finding.code);
const requestsTo = (host: string) => web.requests.filter((request) => request.serverName === host);

describe('bimiCheck', () => {
  it('is valid for an SVG Tiny PS logo verified by a trusted VMC, with DMARC enforced', async () => {
    const result = await scan('good.test');
    expect(result.status).toBe('valid');
    expect(result.details.findings).toEqual([]);
    expect(result.value).toBe('SVG Tiny PS logo, VMC');
    expect(result.recommendation).toBeNull();
    expect(result.message).toMatch(/^BIMI is ready: the SVG Tiny PS logo is verified by a VMC valid for 36\d more days, and DMARC is enforced\.$/);
    expect(result.details).toMatchObject({
      record: withCert('good.test'),
      selector: 'default',
      recordDomain: 'good.test',
      logoUrl: logoUrl('good.test'),
      authorityUrl: pemUrl('good.test'),
      dmarc: { policyDomain: 'good.test', policy: 'reject', pct: 100, enforced: true },
      logo: { fetched: true, sizeBytes: Buffer.byteLength(GOOD_SVG), profile: 'tiny-ps', square: true, width: 512, height: 512, title: 'Good Brand', errors: [] },
      certificate: { present: true, markType: 'VMC', logoMatches: true, trusted: true, subject: expect.stringContaining('CN=Sendwell Test Brand'), issuer: 'CN=Sendwell Test CA' },
    });
    const requests = requestsTo('bimi.good.test');
    expect(requests.map((request) => request.path).sort()).toEqual(['/logo.svg', '/vmc.pem']);
    expect(requests.every((request) => request.hostHeader === `bimi.good.test:${web.port}`)).toBe(true);
  });

  it("falls back to the organisational domain's record and DMARC policy for a subdomain", async () => {
    const result = await scan('sub.good.test');
    expect(result.status).toBe('valid');
    expect(result.details).toMatchObject({ recordDomain: 'good.test', record: withCert('good.test'), dmarc: { policyDomain: 'good.test', enforced: true } });
  });

  it('recognises a CMC and leaves the trust of a root it does not know unjudged', async () => {
    const result = await scan('cmc.test');
    expect(result.status).toBe('valid');
    expect(codes(result)).toEqual(['BIMI_CERT_TRUST_UNKNOWN']);
    expect(result.details.certificate).toMatchObject({ present: true, markType: 'CMC', trusted: null, logoMatches: true });
    expect(result.value).toBe('SVG Tiny PS logo, CMC');
  });

  it('warns when the logo is good but no Mark Certificate vouches for it', async () => {
    const result = await scan('nocert.test');
    expect(result.status).toBe('warning');
    expect(codes(result)).toEqual(['BIMI_NO_CERTIFICATE']);
    expect(result.value).toBe('SVG Tiny PS logo, no certificate');
    expect(result.details.certificate).toEqual({ present: false });
    expect(result.recommendation).toMatch(/Mark Certificate/);
  });

  it('reads a gzip-compressed (SVGZ) logo', async () => {
    const result = await scan('svgz.test');
    expect(codes(result)).toEqual(['BIMI_NO_CERTIFICATE']);
    expect(result.details.logo).toMatchObject({ fetched: true, profile: 'tiny-ps', square: true, title: 'Good Brand', sizeBytes: gzipSync(GOOD_SVG).length });
  });

  it('reports each broken SVG Tiny PS rule as its own finding', async () => {
    const result = await scan('badsvg.test');
    expect(result.status).toBe('error');
    expect(problems(result)).toEqual(expect.arrayContaining(['BIMI_SVG_SCRIPT', 'BIMI_SVG_NOT_SQUARE', 'BIMI_SVG_PROFILE']));
    expect(problems(result).filter((code) => code.startsWith('BIMI_SVG_'))).toHaveLength(3);
    expect(result.details.logo).toMatchObject({ fetched: true, profile: 'tiny', square: false, width: 200, height: 100, title: 'Bad Brand' });
    expect(result.details.logo?.errors).toHaveLength(3);
    expect(result.value).toBe('logo invalid, no certificate');
  });

  it.each([
    ['pnone.test', /p=none/],
    ['pct.test', /50% of failing mail \(pct=50\)/],
    ['sub.weakorg.test', /_dmarc\.weakorg\.test has p=none/],
    ['spnone.test', /sp=none/],
    ['nodmarc.test', /no DMARC record/],
  ])('is an error when DMARC is not enforced (%s)', async (domain, reason) => {
    const result = await scan(domain);
    expect(result.status).toBe('error');
    expect(problems(result)).toEqual(['BIMI_DMARC_NOT_ENFORCED', 'BIMI_NO_CERTIFICATE']);
    expect(result.message).toMatch(reason);
    expect(result.details.dmarc?.enforced).toBe(false);
  });

  it('only warns about a reject policy applied to part of the mail', async () => {
    const result = await scan('rejectpct.test');
    expect(result.status).toBe('warning');
    expect(codes(result)).toEqual(['BIMI_DMARC_PCT_PARTIAL', 'BIMI_NO_CERTIFICATE']);
    expect(result.details.dmarc).toMatchObject({ policy: 'reject', pct: 50, enforced: true });
  });

  it('is missing without a BIMI record', async () => {
    const result = await scan('missing.test');
    expect(result.status).toBe('missing');
    expect(codes(result)).toEqual(['BIMI_MISSING']);
    expect(result.details.findings[0]?.severity).toBe('info');
    expect(result.value).toBeNull();
  });

  it('takes a declination record as a success and fetches nothing', async () => {
    const result = await scan('declined.test');
    expect(result.status).toBe('success');
    expect(codes(result)).toEqual(['BIMI_DECLINED']);
    expect(result.value).toBe('declined');
    expect(result.details.record).toBe('v=BIMI1; l=; a=;');
    expect(requestsTo('bimi.declined.test')).toEqual([]);
  });

  it('rejects a logo larger than 32 KB', async () => {
    const result = await scan('large.test');
    expect(result.status).toBe('error');
    expect(problems(result)).toEqual(['BIMI_LOGO_TOO_LARGE', 'BIMI_NO_CERTIFICATE']);
    expect(result.details.logo).toMatchObject({ fetched: false });
  });

  it('does not follow a redirect of the logo', async () => {
    const before = requestsTo('bimi.good.test').length;
    const result = await scan('redirect.test');
    expect(result.status).toBe('error');
    expect(problems(result)).toEqual(['BIMI_LOGO_REDIRECT', 'BIMI_NO_CERTIFICATE']);
    expect(result.message).toContain(`to ${logoUrl('good.test')}`);
    expect(requestsTo('bimi.good.test')).toHaveLength(before);
  });

  it.each([
    ['notfound.test', 'BIMI_LOGO_HTTP_STATUS', 'error'],
    ['badtls.test', 'BIMI_LOGO_TLS_UNTRUSTED', 'error'],
    ['private.test', 'BIMI_LOGO_PRIVATE_ADDRESS', 'warning'],
  ])('reports a logo it cannot fetch safely (%s)', async (domain, code, status) => {
    const result = await scan(domain);
    expect(result.status).toBe(status);
    expect(problems(result)).toEqual([code, 'BIMI_NO_CERTIFICATE']);
    expect(result.details.logo?.fetched).toBe(false);
    expect(result.value).toBe('logo unavailable, no certificate');
  });

  it.each([
    ['expired.test', 'BIMI_CERT_EXPIRED'],
    ['notbimi.test', 'BIMI_CERT_NOT_MARK_CERTIFICATE'],
    ['mismatch.test', 'BIMI_CERT_LOGO_MISMATCH'],
    ['wrongdomain.test', 'BIMI_CERT_DOMAIN_MISMATCH'],
    ['brokenchain.test', 'BIMI_CERT_CHAIN_INVALID'],
  ])('rejects a Mark Certificate receivers would not accept (%s)', async (domain, code) => {
    const result = await scan(domain);
    expect(result.status).toBe('error');
    expect(problems(result)).toEqual([code]);
    expect(result.details.certificate?.present).toBe(true);
    expect(result.value).toBe(domain === 'notbimi.test' ? 'SVG Tiny PS logo, certificate' : 'SVG Tiny PS logo, VMC');
  });

  it('tells a mismatching embedded logo and an expired certificate apart in the details', async () => {
    const mismatch = await scan('mismatch.test');
    expect(mismatch.details.certificate).toMatchObject({ logoMatches: false, markType: 'VMC', trusted: true });
    const expired = await scan('expired.test');
    expect(expired.details.certificate?.daysRemaining).toBeLessThan(0);
    const brokenChain = await scan('brokenchain.test');
    expect(brokenChain.details.certificate?.trusted).toBe(false);
  });

  it.each([
    ['two.test', 'BIMI_MULTIPLE_RECORDS'],
    ['syntax.test', 'BIMI_LOGO_URL_INVALID'],
    ['ignored.test', 'BIMI_RECORD_INVALID'],
  ])('is an error for a record receivers cannot use (%s)', async (domain, code) => {
    const result = await scan(domain);
    expect(result.status).toBe('error');
    expect(problems(result)[0]).toBe(code);
    expect(requestsTo(`bimi.${domain}`)).toEqual([]);
  });

  it('is unknown when the DMARC precondition cannot be looked up', async () => {
    const result = await scan('dmarcdown.test');
    expect(result.status).toBe('unknown');
    expect(codes(result)).toEqual(['BIMI_DMARC_LOOKUP_FAILED', 'BIMI_NO_CERTIFICATE']);
    expect(result.message).toBe('The DMARC precondition of BIMI could not be checked: the DMARC lookup of _dmarc.dmarcdown.test timed out.');
    expect(result.details.dmarc?.enforced).toBeNull();
  });

  it('is unknown when the BIMI lookup times out', async () => {
    const result = await scan('dnsdown.test');
    expect(result.status).toBe('unknown');
    expect(result.message).toBe('BIMI could not be checked: the DNS lookup of default._bimi.dnsdown.test timed out.');
    expect(result.details.findings).toEqual([]);
  });
});
