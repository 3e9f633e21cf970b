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
