import { checkDetailsByType, findingSchema } from '@sendwell/contracts';
import { startDnsServer, type TestDnsServer } from '@sendwell/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dmarcCheck } from '../../src/checks/dmarc/dmarc.check.js';
import type { CheckContext, CheckResult } from '../../src/checks/types.js';
import { checkContext } from './harness.js';

let server: TestDnsServer;

function context(domain: string): CheckContext {
  return checkContext(domain, server, { dnsTimeoutMs: 300 });
}

async function scan(domain: string): Promise<CheckResult> {
  const result = await dmarcCheck(context(domain));
  checkDetailsByType.dmarc.parse(result.details);
  for (const finding of result.details.findings) findingSchema.parse(finding);
  expect(result.type).toBe('dmarc');
  return result;
}

const codes = (result: CheckResult) => result.details.findings.map((finding) => finding.code);
const problems = (result: CheckResult) =>
  result.details.findings.filter((finding) => finding.severity !== 'info').map((finding) => finding.code);

beforeAll(async () => {
  server = await startDnsServer({
    records: {
      '_dmarc.reject.test': { TXT: ['v=DMARC1; p=reject; rua=mailto:dmarc@reject.test'] },
      '_dmarc.quarantine.test': {
        TXT: ['v=DMARC1; p=quarantine; adkim=s; aspf=s; rua=mailto:dmarc@quarantine.test', 'some-verification=abc'],
      },
      '_dmarc.none.test': { TXT: ['v=DMARC1; p=none; rua=mailto:dmarc@none.test'] },
      '_dmarc.pct.test': { TXT: ['v=DMARC1; p=reject; pct=25; rua=mailto:dmarc@pct.test'] },
      '_dmarc.norua.test': { TXT: ['v=DMARC1; p=reject; adkim=s; aspf=s'] },
      '_dmarc.example.co.uk': {
        TXT: ['v=DMARC1; p=reject; sp=quarantine; rua=mailto:dmarc@example.co.uk'],
      },
      'mail.sub.example.co.uk': { A: ['192.0.2.10'] },
      '_dmarc.allnone.co.uk': { TXT: ['v=DMARC1; p=none; sp=none; rua=mailto:dmarc@allnone.co.uk'] },
      '_dmarc.spnone.co.uk': { TXT: ['v=DMARC1; p=reject; sp=none; rua=mailto:dmarc@spnone.co.uk'] },
      '_dmarc.external.test': {
        TXT: [
          'v=DMARC1; p=reject; rua=mailto:reports@vendor.example,mailto:agg@unverified.example,mailto:dmarc@mail.external.test; ruf=mailto:ruf@wild.example!10m',
        ],
      },
      'external.test._report._dmarc.vendor.example': { TXT: ['v=DMARC1'] },
      '*._report._dmarc.wild.example': { TXT: ['v=DMARC1;'] },
      'unverified.example': { A: ['192.0.2.20'] },
      '_dmarc.slowdest.test': { TXT: ['v=DMARC1; p=reject; rua=mailto:r@slow.example'] },
      '_dmarc.missingp.test': { TXT: ['v=DMARC1; rua=mailto:dmarc@missingp.test'] },
      '_dmarc.badpct.test': { TXT: ['v=DMARC1; p=reject; pct=150; rua=mailto:dmarc@badpct.test'] },
      '_dmarc.vpos.test': { TXT: ['p=reject; v=DMARC1; rua=mailto:dmarc@vpos.test'] },
      '_dmarc.multi.test': {
        TXT: ['v=DMARC1; p=reject; rua=mailto:a@multi.test', 'v=DMARC1; p=none; rua=mailto:b@multi.test'],
      },
      '_dmarc.plainrua.test': { TXT: ['v=DMARC1; p=reject; rua=dmarc@plainrua.test'] },
      'nothing.test': { A: ['192.0.2.30'] },
      '_dmarc.other.test': { TXT: ['not a dmarc record'] },
      // DMARCbis (RFC 9989): np, psd, t, and the removed pct, rf, ri.
      '_dmarc.testing.test': { TXT: ['v=DMARC1; p=reject; t=y; adkim=s; aspf=s; rua=mailto:dmarc@testing.test'] },
      '_dmarc.testingq.test': { TXT: ['v=DMARC1; p=quarantine; t=y; adkim=s; aspf=s; rua=mailto:dmarc@testingq.test'] },
      '_dmarc.testingoff.test': { TXT: ['v=DMARC1; p=reject; t=n; adkim=s; aspf=s; rua=mailto:dmarc@testingoff.test'] },
      '_dmarc.np.test': { TXT: ['v=DMARC1; p=reject; sp=quarantine; np=reject; adkim=s; aspf=s; rua=mailto:dmarc@np.test'] },
      '_dmarc.npnone.test': { TXT: ['v=DMARC1; p=reject; np=none; adkim=s; aspf=s; rua=mailto:dmarc@npnone.test'] },
      '_dmarc.psdyes.test': { TXT: ['v=DMARC1; p=reject; psd=y; adkim=s; aspf=s; rua=mailto:dmarc@psdyes.test'] },
      '_dmarc.psdno.test': { TXT: ['v=DMARC1; p=reject; psd=n; adkim=s; aspf=s; rua=mailto:dmarc@psdno.test'] },
      '_dmarc.co.uk': { TXT: ['v=DMARC1; p=reject; psd=y; adkim=s; aspf=s; rua=mailto:dmarc@co.uk'] },
      '_dmarc.badbis.test': { TXT: ['v=DMARC1; p=reject; np=maybe; t=on; psd=x; adkim=s; aspf=s; rua=mailto:dmarc@badbis.test'] },
      '_dmarc.legacy.test': { TXT: ['v=DMARC1; p=reject; pct=100; rf=afrf; ri=3600; adkim=s; aspf=s; rua=mailto:dmarc@legacy.test'] },
    },
    behaviours: {
      '_dmarc.timeout.test': 'timeout',
      '_dmarc.servfail.test': 'servfail',
      '_report._dmarc.slow.example': 'timeout',
    },
  });
});

afterAll(async () => {
  await server.close();
});

describe('dmarc check', () => {
  it('p=reject with reports: valid', async () => {
    const result = await scan('reject.test');
    expect(result.status).toBe('valid');
    expect(result.value).toBe('v=DMARC1; p=reject; rua=mailto:dmarc@reject.test');
    expect(result.message).toBe('DMARC policy is reject.');
    expect(result.recommendation).toBeNull();
    expect(result.details).toMatchObject({
      policy: 'reject',
      subdomainPolicy: 'reject',
      effectivePolicy: 'reject',
      nonExistentSubdomainPolicy: 'reject',
      testing: false,
      testingPolicy: null,
      publicSuffixDomain: 'u',
      pct: 100,
      source: 'domain',
      policyDomain: 'reject.test',
      orgDomain: 'reject.test',
      alignment: { dkim: 'relaxed', spf: 'relaxed' },
      rua: [{ uri: 'mailto:dmarc@reject.test', address: 'dmarc@reject.test', external: false }],
      ruf: [],
    });
    expect(codes(result)).toEqual(['DMARC_ALIGNMENT_RELAXED']);
  });

  it('p=quarantine with strict alignment: valid, other TXT records ignored', async () => {
    const result = await scan('quarantine.test');
    expect(result.status).toBe('valid');
    expect(result.details).toMatchObject({ policy: 'quarantine', alignment: { dkim: 'strict', spf: 'strict' } });
    expect(result.details.records).toEqual(['v=DMARC1; p=quarantine; adkim=s; aspf=s; rua=mailto:dmarc@quarantine.test']);
    expect(codes(result)).toEqual([]);
  });

  it('p=none: warning (DMARC_POLICY_NONE)', async () => {
    const result = await scan('none.test');
    expect(result.status).toBe('warning');
    expect(problems(result)).toEqual(['DMARC_POLICY_NONE']);
    expect(result.message).toMatch(/monitoring/);
    expect(result.recommendation).toMatch(/p=quarantine/);
  });

  it('pct below 100: warning (DMARC_PCT_PARTIAL)', async () => {
    const result = await scan('pct.test');
    expect(result.status).toBe('warning');
    expect(problems(result)).toEqual(['DMARC_PCT_PARTIAL']);
    expect(codes(result)).toContain('DMARC_TAG_REMOVED');
    expect(result.details.pct).toBe(25);
    expect(result.message).toContain('25%');
  });

  it('no rua: warning (DMARC_NO_RUA)', async () => {
    const result = await scan('norua.test');
    expect(result.status).toBe('warning');
    expect(codes(result)).toEqual(['DMARC_NO_RUA']);
    expect(result.details.findings[0]).toMatchObject({ severity: 'warning', rfc: 'RFC 7489 §7.2', tag: 'rua' });
  });

  it('falls back to the organisational domain from the public suffix list, where sp= applies', async () => {
    server.resetLog();
    const result = await scan('mail.sub.example.co.uk');
    expect(result.status).toBe('valid');
    expect(result.details).toMatchObject({
      policy: 'reject',
      subdomainPolicy: 'quarantine',
      nonExistentSubdomainPolicy: 'quarantine',
      effectivePolicy: 'quarantine',
      source: 'organizational',
      policyDomain: 'example.co.uk',
      orgDomain: 'example.co.uk',
    });
    expect(result.message).toBe('DMARC policy is quarantine (inherited from example.co.uk).');
    expect(codes(result)).toContain('DMARC_INHERITED_FROM_ORG');
    expect(server.queryLog.map((entry) => entry.name.toLowerCase())).toEqual([
      '_dmarc.mail.sub.example.co.uk',
      '_dmarc.example.co.uk',
    ]);
  });

  it('warns about sp=none under a stricter p, which leaves an inheriting subdomain unprotected', async () => {
    const own = await scan('spnone.co.uk');
    expect(own.status).toBe('warning');
    expect(problems(own)).toEqual(['DMARC_SUBDOMAIN_POLICY_NONE']);

    const sub = await scan('shop.spnone.co.uk');
    expect(sub.status).toBe('warning');
    expect(sub.details).toMatchObject({ effectivePolicy: 'none', source: 'organizational' });
    expect(problems(sub)).toEqual(['DMARC_SUBDOMAIN_POLICY_NONE']);

    const allNone = await scan('shop.allnone.co.uk');
    expect(allNone.status).toBe('warning');
    expect(problems(allNone)).toEqual(['DMARC_POLICY_NONE']);
  });

  it('ignores TXT records at _dmarc that are not DMARC and falls back', async () => {
    const result = await scan('other.test');
    expect(result.status).toBe('missing');
  });

  it('verifies external report destinations (RFC 7489 §7.1)', async () => {
    server.resetLog();
    const result = await scan('external.test');
    expect(result.status).toBe('warning');
    expect(problems(result)).toEqual(['DMARC_EXTERNAL_DEST_UNVERIFIED']);
    const unverified = result.details.findings.find((finding) => finding.code === 'DMARC_EXTERNAL_DEST_UNVERIFIED');
    expect(unverified?.message).toContain('unverified.example');
    expect(unverified?.recommendation).toContain('external.test._report._dmarc.unverified.example');
    expect(result.details.rua).toEqual([
      expect.objectContaining({ domain: 'vendor.example', external: true, verified: true }),
      expect.objectContaining({ domain: 'unverified.example', external: true, verified: false }),
      expect.objectContaining({ domain: 'mail.external.test', external: false }),
    ]);
    expect(result.details.ruf).toEqual([
      expect.objectContaining({ domain: 'wild.example', external: true, verified: true, maxSize: '10m' }),
    ]);
    // The same-organisation destination needs no authorisation and is never asked about.
    const asked = server.queryLog.map((entry) => entry.name.toLowerCase());
    expect(asked).not.toContain('external.test._report._dmarc.mail.external.test');
    expect(asked).toContain('external.test._report._dmarc.vendor.example');
  });

  it('leaves an external destination unverified-unknown when its lookup times out', async () => {
    const result = await scan('slowdest.test');
    expect(result.status).toBe('valid');
    expect(codes(result)).toContain('DMARC_EXTERNAL_DEST_UNKNOWN');
    expect(result.details.rua).toEqual([expect.objectContaining({ external: true, verified: null })]);
  });

  describe('syntax faults: error, naming the tag', () => {
    it('missing p=', async () => {
      const result = await scan('missingp.test');
      expect(result.status).toBe('error');
      expect(problems(result)).toEqual(['DMARC_POLICY_MISSING']);
      expect(result.message).toBe('The DMARC record has an error (p=).');
      expect(result.details.policy).toBeNull();
    });

    it('pct out of range', async () => {
      const result = await scan('badpct.test');
      expect(result.status).toBe('error');
      expect(problems(result)).toEqual(['DMARC_PCT_INVALID']);
      expect(result.message).toContain('pct=');
      expect(result.details.pct).toBe(100);
    });

    it('v= not first', async () => {
      const result = await scan('vpos.test');
      expect(result.status).toBe('error');
      expect(problems(result)).toEqual(['DMARC_VERSION_NOT_FIRST']);
      expect(result.recommendation).toContain('v=DMARC1');
    });

    it('an address without mailto:', async () => {
      const result = await scan('plainrua.test');
      expect(result.status).toBe('error');
      expect(problems(result)).toEqual(['DMARC_URI_INVALID', 'DMARC_NO_RUA']);
    });
  });

  describe('DMARCbis tags (RFC 9989 §4.7)', () => {
    it('t=y under p=reject: warning, the policy acts like quarantine at DMARCbis receivers (DMARC_TESTING_MODE)', async () => {
      const result = await scan('testing.test');
      expect(result.status).toBe('warning');
      expect(codes(result)).toEqual(['DMARC_TESTING_MODE']);
      expect(result.details).toMatchObject({ policy: 'reject', effectivePolicy: 'reject', testing: true, testingPolicy: 'quarantine' });
      expect(result.message).toBe(
        'DMARC policy is reject, in testing mode (t=y: quarantine at receivers that follow DMARCbis), with issues to fix.',
      );
      expect(result.details.findings[0]).toEqual({
        code: 'DMARC_TESTING_MODE',
        severity: 'warning',
        message:
          't=y puts the reject policy in testing mode: receivers that follow DMARCbis apply one level less, so it acts like quarantine; receivers that still follow RFC 7489 ignore t= and apply reject.',
        rfc: 'RFC 9989 §4.7',
        recommendation:
          'Once the aggregate reports show all your legitimate mail passes SPF or DKIM aligned, remove t=y (or set t=n) so reject applies everywhere.',
        tag: 't',
      });
      expect(result.recommendation).toContain('remove t=y');
    });

    it('t=y under p=quarantine acts like none: forged mail is delivered', async () => {
      const result = await scan('testingq.test');
      expect(result.status).toBe('warning');
      expect(codes(result)).toEqual(['DMARC_TESTING_MODE']);
      expect(result.details).toMatchObject({ testing: true, testingPolicy: 'none' });
      expect(result.details.findings[0]?.message).toContain('acts like none (forged mail is delivered)');
    });

    it('t=n: the policy applies, valid', async () => {
      const result = await scan('testingoff.test');
      expect(result.status).toBe('valid');
      expect(codes(result)).toEqual([]);
      expect(result.details).toMatchObject({ testing: false, testingPolicy: null });
      expect(result.message).toBe('DMARC policy is reject.');
    });

    it('np= is shown apart from sp=, and falls back to sp= then p= when absent', async () => {
      const result = await scan('np.test');
      expect(result.status).toBe('valid');
      expect(codes(result)).toEqual([]);
      expect(result.details).toMatchObject({ policy: 'reject', subdomainPolicy: 'quarantine', nonExistentSubdomainPolicy: 'reject' });
      expect((await scan('quarantine.test')).details.nonExistentSubdomainPolicy).toBe('quarantine');
      expect((await scan('spnone.co.uk')).details.nonExistentSubdomainPolicy).toBe('none');
    });

    it('np=none under p=reject: warning (DMARC_NP_NONE)', async () => {
      const result = await scan('npnone.test');
      expect(result.status).toBe('warning');
      expect(codes(result)).toEqual(['DMARC_NP_NONE']);
      expect(result.details.nonExistentSubdomainPolicy).toBe('none');
      expect(result.details.findings[0]).toMatchObject({
        severity: 'warning',
        message: 'np=none leaves non-existent subdomains (names such as invented.npnone.test that have no DNS records) unprotected although p=reject.',
        recommendation: 'Set np=reject: no legitimate mail comes from names that do not exist.',
        tag: 'np',
      });
    });

    it('psd=y on a name that is no public suffix: warning (DMARC_PSD_NOT_PUBLIC_SUFFIX); psd=n and a real suffix are fine', async () => {
      const yes = await scan('psdyes.test');
      expect(yes.status).toBe('warning');
      expect(codes(yes)).toEqual(['DMARC_PSD_NOT_PUBLIC_SUFFIX']);
      expect(yes.details.publicSuffixDomain).toBe('y');
      expect(yes.details.findings[0]?.message).toBe(
        'psd=y declares psdyes.test a public suffix domain, but it is not on the Public Suffix List: receivers that follow DMARCbis then treat each of its subdomains as an organisation of its own, so relaxed alignment between them no longer passes.',
      );
      expect(yes.recommendation).toBe('Remove psd=y (or set psd=n) unless psdyes.test registers names for others, as a public suffix does.');

      const no = await scan('psdno.test');
      expect(no.status).toBe('valid');
      expect(codes(no)).toEqual([]);
      expect(no.details.publicSuffixDomain).toBe('n');

      const suffix = await scan('co.uk');
      expect(suffix.status).toBe('valid');
      expect(codes(suffix)).toEqual([]);
      expect(suffix.details).toMatchObject({ publicSuffixDomain: 'y', policyDomain: 'co.uk' });
    });

    it('invalid np, t and psd: warnings naming the tag, the defaults apply, the record still counts', async () => {
      const result = await scan('badbis.test');
      expect(result.status).toBe('warning');
      expect(result.details.findings.map((finding) => [finding.code, finding.severity, finding.tag])).toEqual([
        ['DMARC_NP_INVALID', 'warning', 'np'],
        ['DMARC_T_INVALID', 'warning', 't'],
        ['DMARC_PSD_INVALID', 'warning', 'psd'],
      ]);
      expect(result.details.findings.map((finding) => finding.message)).toEqual([
        'The np= tag is "maybe"; it must be none, quarantine or reject.',
        'The t= tag is "on"; it must be "y" (testing) or "n".',
        'The psd= tag is "x"; it must be "y", "n" or "u".',
      ]);
      expect(result.details).toMatchObject({
        policy: 'reject',
        effectivePolicy: 'reject',
        nonExistentSubdomainPolicy: 'reject',
        testing: false,
        testingPolicy: null,
        publicSuffixDomain: 'u',
      });
    });

    it('pct, rf and ri: an info finding each, removed by DMARCbis, and the domain still valid', async () => {
      const result = await scan('legacy.test');
      expect(result.status).toBe('valid');
      expect(result.recommendation).toBeNull();
      expect(result.details.findings.map((finding) => [finding.code, finding.severity, finding.tag, finding.rfc])).toEqual([
        ['DMARC_TAG_REMOVED', 'info', 'pct', 'RFC 9989 §4.7'],
        ['DMARC_TAG_REMOVED', 'info', 'rf', 'RFC 9989 §4.7'],
        ['DMARC_TAG_REMOVED', 'info', 'ri', 'RFC 9989 §4.7'],
      ]);
      expect(result.details.findings[0]?.message).toBe(
        'The pct= tag is removed in DMARCbis (RFC 9989): receivers that follow it ignore the tag; use t=y for testing instead.',
      );
      expect(result.details).toMatchObject({ pct: 100, reportFormat: ['afrf'], reportInterval: 3600 });
    });
  });

  it('several records: error, and no policy applies (RFC 7489 §6.6.3)', async () => {
    const result = await scan('multi.test');
    expect(result.status).toBe('error');
    expect(codes(result)).toEqual(['DMARC_MULTIPLE_RECORDS']);
    expect(result.details).toMatchObject({ policy: null, record: null, source: 'domain' });
    expect(result.details.records).toHaveLength(2);
  });

  it('no record at the domain or its organisational domain: missing', async () => {
    const own = await scan('nothing.test');
    expect(own.status).toBe('missing');
    expect(own.value).toBeNull();
    expect(codes(own)).toEqual(['DMARC_MISSING']);
    expect(own.recommendation).toContain('_dmarc.nothing.test');

    server.resetLog();
    const sub = await scan('www.nothing.test');
    expect(sub.status).toBe('missing');
    expect(sub.details.orgDomain).toBe('nothing.test');
    expect(server.queryLog.map((entry) => entry.name.toLowerCase())).toEqual(['_dmarc.www.nothing.test', '_dmarc.nothing.test']);
  });

  it('DNS timeouts and server failures: unknown', async () => {
    const timeout = await scan('timeout.test');
    expect(timeout.status).toBe('unknown');
    expect(timeout.message).toMatch(/timed out/);
    const servfail = await scan('servfail.test');
    expect(servfail.status).toBe('unknown');
    expect(servfail.message).toMatch(/SERVFAIL/);
  });
});
