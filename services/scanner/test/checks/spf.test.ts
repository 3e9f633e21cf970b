import { Resolver as NodeResolver } from 'node:dns/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spf as mailauthSpf } from 'mailauth/lib/spf/index.js';
import { checkDetailsByType } from '@sendwell/contracts';
import { startDnsServer, type DnsFixtureRecords, type TestDnsServer } from '@sendwell/testing';
import { checkHost } from '../../src/checks/spf/evaluate.js';
import { spfCheck, type SpfDetails } from '../../src/checks/spf/spf.check.js';
import type { CheckResult } from '../../src/checks/types.js';
import { checkContext, fixtureResolver } from './harness.js';

const txt = (...records: Array<string | string[]>): DnsFixtureRecords => ({ TXT: records });
const a = (...addresses: string[]): DnsFixtureRecords => ({ A: addresses });

function includes(suffix: string, count: number): string {
  return `v=spf1 ${Array.from({ length: count }, (_, i) => `include:i${i + 1}.lim.test`).join(' ')} ${suffix}`;
}

const longRecord = `v=spf1 ${Array.from({ length: 30 }, (_, i) => `ip4:198.18.${i}.0/24`).join(' ')} -all`;

const records: Record<string, DnsFixtureRecords> = {
  // A good record: networks, a nested include tree, a and mx.
  'good.test': { ...txt('v=spf1 ip4:192.0.2.0/24 ip6:2001:db8::/32 include:_spf.provider.test a mx ~all', 'google-site-verification=abc'), A: ['192.0.2.10'], MX: [{ priority: 10, exchange: 'mail.good.test' }] },
  'mail.good.test': { A: ['198.51.100.5'], AAAA: ['2001:db8:5::5'] },
  '_spf.provider.test': txt('v=spf1 ip4:203.0.113.0/24 include:_spf2.provider.test ~all'),
  '_spf2.provider.test': txt('v=spf1 ip4:198.51.100.0/24 ip6:2001:db8:ffff::/48 ip4:203.0.113.0/24 -all'),
  'missing.test': txt('google-site-verification=abc'),
  'multi.test': txt('v=spf1 ip4:192.0.2.1 -all', 'v=spf1 ip4:192.0.2.2 -all'),
  'passall.test': txt('v=spf1 ip4:192.0.2.1 +all'),
  'neutral.test': txt('v=spf1 ip4:192.0.2.1 ?all'),
  'soft.test': txt('v=spf1 ip4:192.0.2.1 ~all'),
  'hard.test': txt('v=spf1 ip4:192.0.2.1 -all'),
  'noall.test': txt('v=spf1 ip4:192.0.2.1'),
  'ptr.test': txt('v=spf1 ptr -all'),
  'mail.ptr.test': a('192.0.2.50'),
  '50.2.0.192.in-addr.arpa': { PTR: ['mail.ptr.test'] },
  '51.2.0.192.in-addr.arpa': { PTR: ['forged.ptr.test'] },
  'forged.ptr.test': a('192.0.2.99'),
  // Lookup limit: exactly 10 and 11 includes.
  'ten.test': txt(includes('-all', 10)),
  'eleven.test': txt(includes('-all', 11)),
  // Void lookups: names that do not exist.
  'void2.test': txt('v=spf1 a:nx1.void.test mx:nx2.void.test ip4:192.0.2.1 -all'),
  'void3.test': txt('v=spf1 a:nx1.void.test mx:nx2.void.test exists:nx3.void.test ip4:192.0.2.1 -all'),
  // An include loop.
  'loop-a.test': txt('v=spf1 include:loop-b.test -all'),
  'loop-b.test': txt('v=spf1 ip4:192.0.2.1 include:loop-a.test -all'),
  // Redirect, with the target's exp= used on fail.
  'redirect.test': txt('v=spf1 redirect=_spf.target.test'),
  '_spf.target.test': txt('v=spf1 ip4:192.0.2.0/24 exp=why.target.test -all'),
  'why.target.test': txt('%{i} may not send for %{d} (sender %{S}, helo %{h})'),
  // exp= in the original record of a redirect must not be used (RFC 7208 §6.2).
  'redirect-exp.test': txt('v=spf1 exp=why.redirect-exp.test redirect=_spf.target.test'),
  'why.redirect-exp.test': txt('not this one'),
  'expdom.test': txt('v=spf1 ip4:192.0.2.1 exp=why.expdom.test -all'),
  'why.expdom.test': txt("%{i} is not one of %{d}'s designated mail servers."),
  'badexp.test': txt('v=spf1 exp=why.badexp.test -all'),
  'why.badexp.test': txt('bad %{x} macro'),
  // Macros.
  'macro.test': txt('v=spf1 exists:%{i}._spf.%{d} -all'),
  '192.0.2.3._spf.macro.test': a('127.0.0.2'),
  'macro2.test': txt('v=spf1 exists:%{ir}.%{v}._spf.%{d2} exists:%{l1r-}.users.%{d} -all'),
  '4.2.0.192.in-addr._spf.macro2.test': a('127.0.0.2'),
  '1.0.b.c.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.8.b.d.0.1.0.0.2.ip6._spf.macro2.test': a('127.0.0.2'),
  'jane.users.macro2.test': a('127.0.0.2'),
  'macro3.test': txt('v=spf1 ?exists:%{p}.valid.%{d} -all'),
  'mail.macro3.test.valid.macro3.test': a('127.0.0.2'),
  '60.2.0.192.in-addr.arpa': { PTR: ['other.example.test', 'mail.macro3.test'] },
  'mail.macro3.test': a('192.0.2.60'),
  'lp.test': txt('v=spf1 exists:%{l}._l.%{o} -all'),
  'postmaster._l.lp.test': a('127.0.0.2'),
  'mail.helo.test': txt('v=spf1 ip4:192.0.2.5 -all'),
  // CIDR lengths, both families.
  'cidr.test': txt('v=spf1 -ip4:192.0.2.200 a:host.cidr.test/24//64 ~ip4:198.51.100.0/24 ?ip6:2001:db8:99::/48 ~ip6:2001:db8:aa::1 -all'),
  'host.cidr.test': { A: ['192.0.2.1'], AAAA: ['2001:db8:77::1'] },
  'mxdom.test': { ...txt('v=spf1 mx/30 -all'), MX: [{ priority: 10, exchange: 'mx1.mxdom.test' }, { priority: 20, exchange: 'mx2.mxdom.test' }] },
  'mx1.mxdom.test': a('192.0.2.25'),
  'mx2.mxdom.test': { AAAA: ['2001:db8:2::25'] },
  'manymx.test': {
    ...txt('v=spf1 mx -all'),
    MX: Array.from({ length: 11 }, (_, i) => ({ priority: i, exchange: `mx${i}.manymx.test` })),
  },
  // Errors.
  'badinc.test': txt('v=spf1 include:missing.test -all'),
  'syntax.test': txt('v=spf1 ip4:192.0.2.1 foo:bar -all'),
  'glued.test': txt(['v=spf1 include:_spf.provider.test', 'ip4:192.0.2.1 -all']),
  'split.test': txt(['v=spf1 ip4:192.0.2.1 ', 'include:_spf.provider.test -all']),
  'long.test': txt(longRecord),
  'slowinc.test': txt('v=spf1 ip4:192.0.2.1 include:timeout.test -all'),
  'redirect-noall.test': txt('v=spf1 redirect=noall.test'),
  'bothall.test': txt('v=spf1 ip4:192.0.2.1 -all redirect=_spf.target.test'),
};
for (let i = 1; i <= 11; i++) records[`i${i}.lim.test`] = txt(`v=spf1 ip4:10.0.${i}.0/24 -all`);

let dns: TestDnsServer;

beforeAll(async () => {
  dns = await startDnsServer({ records, behaviours: { 'timeout.test': 'timeout', 'servfail.test': 'servfail' } });
});

afterAll(async () => {
  await dns.close();
});

function resolver() {
  return fixtureResolver(dns, 300);
}

async function scan(domain: string): Promise<CheckResult<SpfDetails>> {
  const result = (await spfCheck(checkContext(domain, dns, { dnsTimeoutMs: 300, config: { timeoutMs: 300 } }))) as CheckResult<SpfDetails>;
  // Every result must be storable as the contracts describe it.
  checkDetailsByType.spf.parse(result.details);
  expect(result.type).toBe('spf');
  return result;
}

const codes = (result: CheckResult<SpfDetails>) => result.details.findings.map((f) => f.code);

async function host(ip: string, sender: string, helo = 'mx.client.test') {
  return checkHost({ ip, sender, helo }, resolver());
}

describe('spf check (scan)', () => {
  it('reports a good record with its include tree, lookups and flattened addresses', async () => {
    const result = await scan('good.test');
    expect(result.status).toBe('valid');
    expect(result.value).toBe('v=spf1 ip4:192.0.2.0/24 ip6:2001:db8::/32 include:_spf.provider.test a mx ~all');
    expect(result.recommendation).toBeNull();
    expect(result.details.lookupCount).toBe(4);
    expect(result.details.voidLookupCount).toBe(0);
    expect(codes(result)).toEqual(['SPF_SOFTFAIL_ALL']);
    const tree = result.details.includeTree;
    expect(tree).toMatchObject({ domain: 'good.test', via: 'root', lookups: 3, totalLookups: 4, error: null });
    expect(tree?.children).toHaveLength(1);
    expect(tree?.children[0]).toMatchObject({ domain: '_spf.provider.test', term: 'include:_spf.provider.test', lookups: 1, totalLookups: 1 });
    expect(tree?.children[0]?.children[0]).toMatchObject({ domain: '_spf2.provider.test', record: expect.stringContaining('2001:db8:ffff::/48') });
    expect(result.details.flattenedIps.map((entry) => [entry.ip, entry.source, entry.mechanism])).toEqual([
      ['192.0.2.0/24', 'good.test', 'ip4'],
      ['2001:db8::/32', 'good.test', 'ip6'],
      ['203.0.113.0/24', '_spf.provider.test', 'ip4'],
      ['198.51.100.0/24', '_spf2.provider.test', 'ip4'],
      ['2001:db8:ffff::/48', '_spf2.provider.test', 'ip6'],
      // 203.0.113.0/24 again in _spf2 is deduplicated.
      ['192.0.2.10', 'good.test', 'a'],
      ['198.51.100.5', 'good.test', 'mx'],
      ['2001:db8:5::5', 'good.test', 'mx'],
    ]);
  });

  it('is missing without a record', async () => {
    const result = await scan('missing.test');
    expect(result.status).toBe('missing');
    expect(result.value).toBeNull();
    expect(codes(result)).toEqual(['SPF_MISSING']);
    expect(result.details.issue).toContain('no SPF record');
    expect((await scan('nxdomain.test')).status).toBe('missing');
  });

  it('is an error with several records', async () => {
    const result = await scan('multi.test');
    expect(result.status).toBe('error');
    expect(codes(result)).toEqual(['SPF_MULTIPLE_RECORDS']);
    expect(result.details.findings[0]).toMatchObject({ severity: 'error', rfc: 'RFC 7208 §4.5' });
    expect(result.details.records).toHaveLength(2);
  });

  it('grades the all qualifiers', async () => {
    const pass = await scan('passall.test');
    expect(pass.status).toBe('error');
    expect(pass.details.findings[0]).toMatchObject({ code: 'SPF_PASS_ALL', severity: 'error', rfc: 'RFC 7208 §5.1' });
    const neutral = await scan('neutral.test');
    expect(neutral.status).toBe('warning');
    expect(codes(neutral)).toEqual(['SPF_NEUTRAL_ALL']);
    const soft = await scan('soft.test');
    expect(soft.status).toBe('valid');
    expect(soft.details.findings[0]).toMatchObject({ code: 'SPF_SOFTFAIL_ALL', severity: 'info' });
    const hard = await scan('hard.test');
    expect(hard.status).toBe('valid');
    expect(codes(hard)).toEqual([]);
    expect(hard.details.allQualifier).toBe('-');
    const none = await scan('noall.test');
    expect(none.status).toBe('warning');
    expect(codes(none)).toEqual(['SPF_NO_ALL']);
  });

  it('warns about ptr', async () => {
    const result = await scan('ptr.test');
    expect(result.status).toBe('warning');
    expect(result.details.findings[0]).toMatchObject({ code: 'SPF_PTR_USED', severity: 'warning', rfc: 'RFC 7208 §5.5' });
    expect(result.details.lookupCount).toBe(1);
  });

  it('accepts exactly 10 lookups with a warning and refuses 11', async () => {
    const ten = await scan('ten.test');
    expect(ten.details.lookupCount).toBe(10);
    expect(ten.status).toBe('warning');
    expect(codes(ten)).toEqual(['SPF_LOOKUPS_NEAR_LIMIT']);
    const eleven = await scan('eleven.test');
    expect(eleven.details.lookupCount).toBe(11);
    expect(eleven.status).toBe('error');
    expect(eleven.details.findings[0]).toMatchObject({ code: 'SPF_TOO_MANY_LOOKUPS', severity: 'error', rfc: 'RFC 7208 §4.6.4' });
    expect(eleven.message).toContain('11 DNS lookups');
    expect(eleven.details.includeTree?.children).toHaveLength(11);
  });

  it('counts void lookups: 2 is tolerated, 3 is an error', async () => {
    const two = await scan('void2.test');
    expect(two.details.voidLookupCount).toBe(2);
    expect(two.status).toBe('valid');
    expect(codes(two)).toEqual(['SPF_VOID_LOOKUP']);
    const three = await scan('void3.test');
    expect(three.details.voidLookupCount).toBe(3);
    expect(three.status).toBe('error');
    expect(codes(three)).toContain('SPF_TOO_MANY_VOID_LOOKUPS');
    expect(three.details.voidLookups.map((v) => v.name)).toEqual(['nx1.void.test', 'nx2.void.test', 'nx3.void.test']);
  });

  it('finds include loops', async () => {
    const result = await scan('loop-a.test');
    expect(result.status).toBe('error');
    expect(codes(result)).toContain('SPF_INCLUDE_LOOP');
    const loopNode = result.details.includeTree?.children[0]?.children[0];
    expect(loopNode).toMatchObject({ domain: 'loop-a.test', errorCode: 'SPF_INCLUDE_LOOP' });
    expect(result.details.flattenedIps.map((entry) => entry.ip)).toEqual(['192.0.2.1']);
  });

  it('follows redirect for the lookups, addresses and the final all', async () => {
    const result = await scan('redirect.test');
    expect(result.status).toBe('valid');
    expect(result.details.lookupCount).toBe(1);
    expect(result.details.allQualifier).toBe('-');
    expect(result.details.includeTree?.children[0]).toMatchObject({ via: 'redirect', domain: '_spf.target.test' });
    expect(result.details.flattenedIps.map((entry) => entry.ip)).toEqual(['192.0.2.0/24']);
    expect(codes(result)).not.toContain('SPF_NO_ALL');
    const noAll = await scan('redirect-noall.test');
    expect(noAll.status).toBe('warning');
    expect(noAll.details.findings[0]).toMatchObject({ code: 'SPF_NO_ALL', domain: 'noall.test' });
    const both = await scan('bothall.test');
    expect(codes(both)).toContain('SPF_REDIRECT_IGNORED');
    expect(both.details.lookupCount).toBe(0);
  });

  it('reports errors of included records and syntax errors with the term', async () => {
    const badInclude = await scan('badinc.test');
    expect(badInclude.status).toBe('error');
    expect(badInclude.details.findings[0]).toMatchObject({ code: 'SPF_INCLUDE_NO_RECORD', domain: 'missing.test', term: 'include:missing.test' });
    const syntax = await scan('syntax.test');
    expect(syntax.status).toBe('error');
    expect(syntax.details.findings[0]).toMatchObject({ code: 'SPF_SYNTAX_ERROR', term: 'foo:bar' });
    expect(syntax.message).toContain('"foo:bar"');
  });

  it('joins TXT strings without spaces and spots a missing space at the joint', async () => {
    const glued = await scan('glued.test');
    expect(glued.value).toBe('v=spf1 include:_spf.provider.testip4:192.0.2.1 -all');
    expect(glued.status).toBe('error');
    expect(glued.recommendation).toContain('RFC 7208 §3.3');
    const split = await scan('split.test');
    expect(split.value).toBe('v=spf1 ip4:192.0.2.1 include:_spf.provider.test -all');
    expect(split.status).toBe('valid');
  });

  it('notes a record too long for one UDP answer', async () => {
    const result = await scan('long.test');
    expect(result.value).toBe(longRecord);
    expect(result.status).toBe('valid');
    expect(codes(result)).toEqual(['SPF_RECORD_TOO_LONG']);
    expect(result.details.flattenedIps).toHaveLength(30);
  });

  it('is unknown when DNS times out or fails', async () => {
    const timeout = await scan('timeout.test');
    expect(timeout.status).toBe('unknown');
    expect(codes(timeout)).toEqual(['SPF_DNS_TEMPERROR']);
    const servfail = await scan('servfail.test');
    expect(servfail.status).toBe('unknown');
    const include = await scan('slowinc.test');
    expect(include.status).toBe('unknown');
    expect(include.details.includeTree?.children[0]).toMatchObject({ domain: 'timeout.test', errorCode: 'SPF_DNS_TEMPERROR' });
  });

  it('flags an mx with more than 10 names', async () => {
    const result = await scan('manymx.test');
    expect(result.status).toBe('error');
    expect(codes(result)).toContain('SPF_MX_TOO_MANY_NAMES');
  });
});

describe('checkHost', () => {
  it('evaluates ip4, ip6 and a/mx with CIDR lengths', async () => {
    const cases: Array<[string, string]> = [
      ['192.0.2.200', 'fail'],
      ['192.0.2.77', 'pass'],
      ['::ffff:192.0.2.77', 'pass'],
      ['198.51.100.9', 'softfail'],
      ['2001:db8:77::abcd', 'pass'],
      ['2001:db8:99:1::1', 'neutral'],
      ['2001:db8:aa::1', 'softfail'],
      ['2001:db8:bb::1', 'fail'],
      ['203.0.113.1', 'fail'],
    ];
    for (const [ip, expected] of cases) {
      expect({ ip, result: (await host(ip, 'user@cidr.test')).result }).toEqual({ ip, result: expected });
    }
    expect((await host('192.0.2.27', 'user@mxdom.test')).result).toBe('pass');
    expect((await host('192.0.2.29', 'user@mxdom.test')).result).toBe('fail');
    expect((await host('2001:db8:2::25', 'user@mxdom.test')).result).toBe('pass');
  });

  it('follows includes', async () => {
    const pass = await host('198.51.100.7', 'user@good.test');
    expect(pass).toMatchObject({ result: 'pass', lookups: 2 });
    expect(pass.explanation).toContain('designates 198.51.100.7');
    expect((await host('2001:db8:ffff::1', 'user@good.test')).result).toBe('pass');
    expect((await host('198.51.100.5', 'user@good.test')).result).toBe('pass');
    const soft = await host('100.64.0.1', 'user@good.test');
    expect(soft).toMatchObject({ result: 'softfail', lookups: 4 });
  });

  it('returns none, neutral and the all results', async () => {
    expect((await host('192.0.2.9', 'user@missing.test')).result).toBe('none');
    expect((await host('192.0.2.9', 'user@nxdomain.test')).result).toBe('none');
    expect((await host('192.0.2.9', 'user@localhost')).result).toBe('none');
    expect((await host('192.0.2.9', 'user@noall.test')).result).toBe('neutral');
    expect((await host('192.0.2.9', 'user@neutral.test')).result).toBe('neutral');
    expect((await host('192.0.2.9', 'user@passall.test')).result).toBe('pass');
    expect((await host('192.0.2.9', 'user@soft.test')).result).toBe('softfail');
    expect((await host('192.0.2.1', 'user@hard.test')).result).toBe('pass');
  });

  it('is permerror on several records, syntax errors, missing includes and loops', async () => {
    expect((await host('192.0.2.1', 'user@multi.test')).result).toBe('permerror');
    // A syntax error anywhere voids the record, even after a matching term (§4.6).
    const syntax = await host('192.0.2.1', 'user@syntax.test');
    expect(syntax.result).toBe('permerror');
    expect(syntax.explanation).toContain('foo:bar');
    expect((await host('192.0.2.1', 'user@badinc.test')).result).toBe('permerror');
    const loop = await host('192.0.2.9', 'user@loop-a.test');
    expect(loop.result).toBe('permerror');
    expect(loop.explanation).toContain('loop');
    expect((await host('192.0.2.1', 'user@manymx.test')).result).toBe('permerror');
  });

  it('allows 10 DNS lookups and fails the 11th', async () => {
    const ten = await host('192.0.2.9', 'user@ten.test');
    expect(ten).toMatchObject({ result: 'fail', lookups: 10 });
    const eleven = await host('192.0.2.9', 'user@eleven.test');
    expect(eleven.result).toBe('permerror');
    expect(eleven.explanation).toContain('§4.6.4');
    // A match before the limit is reached is still a pass.
    expect((await host('10.0.3.1', 'user@eleven.test')).result).toBe('pass');
  });

  it('allows 2 void lookups and fails the 3rd', async () => {
    expect(await host('192.0.2.9', 'user@void2.test')).toMatchObject({ result: 'fail', voidLookups: 2 });
    const three = await host('192.0.2.9', 'user@void3.test');
    expect(three.result).toBe('permerror');
    expect(three.explanation).toContain('void');
  });

  it('expands macros (RFC 7208 §7.4 forms)', async () => {
    expect((await host('192.0.2.3', 'user@macro.test')).result).toBe('pass');
    expect((await host('192.0.2.8', 'user@macro.test')).result).toBe('fail');
    expect((await host('192.0.2.4', 'someone@macro2.test')).result).toBe('pass');
    expect((await host('2001:db8::cb01', 'someone@macro2.test')).result).toBe('pass');
    expect((await host('192.0.2.9', 'jane-doe@macro2.test')).result).toBe('pass');
    expect((await host('192.0.2.9', 'doe-jane@macro2.test')).result).toBe('fail');
    // %{p}: of the PTR names of 192.0.2.60, mail.macro3.test resolves back and is in the domain.
    expect((await host('192.0.2.60', 'x@macro3.test')).result).toBe('neutral');
    expect((await host('192.0.2.61', 'x@macro3.test')).result).toBe('fail');
    // An empty local-part becomes "postmaster" (§4.3).
    expect((await host('192.0.2.9', '@lp.test')).result).toBe('pass');
    expect((await host('192.0.2.9', 'bob@lp.test')).result).toBe('fail');
  });

  it('checks ptr against names that resolve back to the IP', async () => {
    expect((await host('192.0.2.50', 'user@ptr.test')).result).toBe('pass');
    // The PTR name does not resolve back to 192.0.2.51.
    expect((await host('192.0.2.51', 'user@ptr.test')).result).toBe('fail');
    expect((await host('192.0.2.52', 'user@ptr.test')).result).toBe('fail');
  });

  it('uses the HELO name when the sender is empty', async () => {
    expect((await host('192.0.2.5', '', 'mail.helo.test')).result).toBe('pass');
    expect((await host('192.0.2.6', '', 'mail.helo.test')).result).toBe('fail');
  });

  it('follows redirect and uses the exp= text on fail', async () => {
    expect((await host('192.0.2.7', 'user@redirect.test')).result).toBe('pass');
    const fail = await host('203.0.113.9', 'Joe+News@redirect.test', 'mx.client.test');
    expect(fail).toMatchObject({ result: 'fail', lookups: 1 });
    expect(fail.explanation).toBe('203.0.113.9 may not send for _spf.target.test (sender Joe%2BNews%40redirect.test, helo mx.client.test)');
    const notOriginal = await host('203.0.113.9', 'user@redirect-exp.test');
    expect(notOriginal.explanation).not.toBe('not this one');
    expect(notOriginal.explanation).toContain('may not send for _spf.target.test');
    const exp = await host('192.0.2.99', 'user@expdom.test');
    expect(exp.explanation).toBe("192.0.2.99 is not one of expdom.test's designated mail servers.");
    // Bad macro syntax in the explanation: as if there were no exp= (§6.2).
    const bad = await host('192.0.2.99', 'user@badexp.test');
    expect(bad.result).toBe('fail');
    expect(bad.explanation).toContain('does not designate');
  });

  it('is temperror when DNS times out or fails', async () => {
    expect((await host('192.0.2.9', 'user@timeout.test')).result).toBe('temperror');
    expect((await host('192.0.2.9', 'user@servfail.test')).result).toBe('temperror');
    expect((await host('192.0.2.9', 'user@slowinc.test')).result).toBe('temperror');
    // The match before the failing include is still a pass.
    expect((await host('192.0.2.1', 'user@slowinc.test')).result).toBe('pass');
  });

  it('refuses a bad IP', async () => {
    await expect(host('not-an-ip', 'user@good.test')).rejects.toThrow(TypeError);
  });
});

type MailauthResolver = NonNullable<Parameters<typeof mailauthSpf>[0]['resolver']>;

describe('cross-check with mailauth (strict RFC 7208 mode) on the same DNS server', () => {
  const cases: Array<[string, string, string?]> = [
    ['198.51.100.7', 'user@good.test'],
    ['2001:db8:ffff::1', 'user@good.test'],
    ['100.64.0.1', 'user@good.test'],
    ['192.0.2.77', 'user@cidr.test'],
    ['198.51.100.9', 'user@cidr.test'],
    ['2001:db8:77::abcd', 'user@cidr.test'],
    ['2001:db8:99:1::1', 'user@cidr.test'],
    ['2001:db8:bb::1', 'user@cidr.test'],
    ['192.0.2.27', 'user@mxdom.test'],
    ['192.0.2.9', 'user@missing.test'],
    ['192.0.2.9', 'user@noall.test'],
    ['192.0.2.1', 'user@multi.test'],
    ['192.0.2.1', 'user@syntax.test'],
    ['192.0.2.9', 'user@ten.test'],
    ['192.0.2.9', 'user@eleven.test'],
    ['192.0.2.9', 'user@void2.test'],
    ['192.0.2.9', 'user@void3.test'],
    ['192.0.2.9', 'user@loop-a.test'],
    ['192.0.2.3', 'user@macro.test'],
    ['192.0.2.4', 'someone@macro2.test'],
    ['192.0.2.9', 'jane-doe@macro2.test'],
    ['192.0.2.50', 'user@ptr.test'],
    ['192.0.2.51', 'user@ptr.test'],
    ['192.0.2.5', '', 'mail.helo.test'],
    ['203.0.113.9', 'user@redirect.test'],
    ['192.0.2.9', 'user@timeout.test'],
  ];

  it('gives the same result for every case', async () => {
    const nodeResolver = new NodeResolver({ timeout: 300, tries: 1 });
    nodeResolver.setServers([dns.url]);
    const ours: string[] = [];
    const theirs: string[] = [];
    for (const [ip, sender, helo = 'mx.client.test'] of cases) {
      const mine = await checkHost({ ip, sender, helo }, resolver());
      const peer = await mailauthSpf({
        ip,
        sender,
        helo,
        mta: 'mx.receiver.test',
        strict: true,
        // mailauth's type says string arrays only, but it reads MX answers as node:dns returns them.
        resolver: ((name: string, type: string) => nodeResolver.resolve(name, type)) as MailauthResolver,
      });
      ours.push(`${ip} ${sender || helo} ${mine.result}`);
      theirs.push(`${ip} ${sender || helo} ${peer.status.result}`);
    }
    expect(ours).toEqual(theirs);
  });
});
