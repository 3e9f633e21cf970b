import { checkDetailsByType, type ReverseDnsDetails } from '@sendwell/contracts';
import { startDnsServer, type TestDnsServer } from '@sendwell/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reverseDnsCheck } from '../../src/checks/reverse-dns/reverse-dns.check.js';
import type { CheckResult } from '../../src/checks/types.js';
import { checkContext } from './harness.js';

/** Forward-confirmed reverse DNS against the fixture DNS server; every address is in 127.0.0.0/8 (or ::1). */

let dns: TestDnsServer;

/** "1.0.0.127.in-addr.arpa" for 127.0.0.1. */
const ptr4 = (ip: string) => `${ip.split('.').reverse().join('.')}.in-addr.arpa`;
const PTR_V6_LOOPBACK = `${'1.'}${'0.'.repeat(31)}ip6.arpa`;

beforeAll(async () => {
  const mxAt = (host: string) => ({ MX: [{ priority: 10, exchange: host }] });
  dns = await startDnsServer({
    records: {
      'fcr.test': mxAt('mx.fcr.test'),
      'mx.fcr.test': { A: ['127.0.0.1'] },
      [ptr4('127.0.0.1')]: { PTR: ['mx.fcr.test'] },

      'mismatch.test': mxAt('mx.mismatch.test'),
      'mx.mismatch.test': { A: ['127.0.0.2'] },
      [ptr4('127.0.0.2')]: { PTR: ['host.elsewhere.test'] },
      'host.elsewhere.test': { A: ['127.0.0.99'] },

      'noptr.test': mxAt('mx.noptr.test'),
      'mx.noptr.test': { A: ['127.0.0.3'] },

      // MX first, then the SPF record's single addresses in order; the /24 and the include are left out.
      'spf.test': { ...mxAt('mx.spf.test'), A: ['127.0.0.6'], TXT: ['v=spf1 mx ip4:127.0.0.4 ip4:127.0.1.0/24 ip6:::1 a a:out.spf.test include:provider.test -all'] },
      'mx.spf.test': { A: ['127.0.0.5'] },
      'out.spf.test': { A: ['127.0.0.7'] },
      'provider.test': { TXT: ['v=spf1 ip4:127.0.0.8 -all'] },
      [ptr4('127.0.0.4')]: { PTR: ['out4.spf.test'] },
      'out4.spf.test': { A: ['127.0.0.4'] },
      [ptr4('127.0.0.5')]: { PTR: ['mx.spf.test'] },
      [ptr4('127.0.0.6')]: { PTR: ['spf.test'] },
      [ptr4('127.0.0.7')]: { PTR: ['out.spf.test'] },
      [PTR_V6_LOOPBACK]: { PTR: ['v6.spf.test'] },
      'v6.spf.test': { AAAA: ['::1'] },

      'none.test': { TXT: ['v=spf1 include:provider.test -all'] },
      'nullmx.test': { MX: [{ priority: 0, exchange: '.' }], TXT: ['v=spf1 -all'] },

      'generic.test': mxAt('mx.generic.test'),
      'mx.generic.test': { A: ['127.0.0.10'] },
      [ptr4('127.0.0.10')]: { PTR: ['127-0-0-10.dynamic.isp.test'] },
      '127-0-0-10.dynamic.isp.test': { A: ['127.0.0.10'] },

      'slowptr.test': mxAt('mx.slowptr.test'),
      'mx.slowptr.test': { A: ['127.0.0.11'] },

      'mixed.test': { ...mxAt('mx.mixed.test'), TXT: ['v=spf1 ip4:127.0.0.13 -all'] },
      'mx.mixed.test': { A: ['127.0.0.12'] },
      [ptr4('127.0.0.12')]: { PTR: ['mx.mixed.test'] },
    },
    behaviours: { [ptr4('127.0.0.11')]: 'timeout', 'dnsdown.test': 'timeout' },
  });
});

afterAll(async () => {
  await dns.close();
});

async function scan(domain: string, allowLoopback = true): Promise<CheckResult> {
  const result = await reverseDnsCheck(checkContext(domain, dns, { config: { timeoutMs: 2_000, outbound: { allowLoopback } } }));
  expect(() => checkDetailsByType.reverse_dns.parse(result.details)).not.toThrow();
  expect(result.type).toBe('reverse_dns');
  return result;
}

const codes = (result: CheckResult) => result.details.findings.map((f) => `${f.code}:${f.severity}`);
const addresses = (result: CheckResult) => result.details['addresses'] as NonNullable<ReverseDnsDetails['addresses']>;

describe('reverseDnsCheck', () => {
  it('is valid when the MX address has a PTR whose name resolves back to it', async () => {
    const result = await scan('fcr.test');
    expect(result.status).toBe('valid');
    expect(result.details.findings).toEqual([]);
    expect(result.value).toBe('1 of 1 confirmed');
    expect(result.message).toBe('The sending address 127.0.0.1 has forward-confirmed reverse DNS (mx.fcr.test).');
    expect(result.recommendation).toBeNull();
    expect(addresses(result)).toEqual([
      { ip: '127.0.0.1', source: 'MX mx.fcr.test', ptr: ['mx.fcr.test'], forwardConfirmed: true, confirmedName: 'mx.fcr.test', generic: false, private: false, error: null },
    ]);
  });

  it('warns when the PTR name does not resolve back to the address', async () => {
    const result = await scan('mismatch.test');
    expect(result.status).toBe('warning');
    expect(codes(result)).toEqual(['RDNS_NOT_CONFIRMED:warning']);
    expect(result.message).toBe(
      '127.0.0.2 (MX mx.mismatch.test): the PTR record names host.elsewhere.test, but that name does not resolve back to 127.0.0.2. Receivers that check forward-confirmed reverse DNS (iprev) treat the address as failing.',
    );
    expect(result.details.findings[0]?.rfc).toBe('RFC 8601 §3');
    expect(result.recommendation).toBe('Point the A/AAAA record of host.elsewhere.test at 127.0.0.2, or set the PTR record to a name that does resolve to it.');
    expect(addresses(result)[0]).toMatchObject({ ptr: ['host.elsewhere.test'], forwardConfirmed: false });
  });

  it('warns when the address has no PTR record', async () => {
    const result = await scan('noptr.test');
    expect(result.status).toBe('warning');
    expect(codes(result)).toEqual(['RDNS_MISSING:warning']);
    expect(result.message).toBe('127.0.0.3 (MX mx.noptr.test): the address has no PTR record. Many receivers reject or penalise mail from an address without reverse DNS.');
    expect(result.details.findings[0]?.rfc).toBe('RFC 1912 §2.1');
    expect(result.value).toBe('0 of 1 confirmed');
    expect(addresses(result)[0]).toMatchObject({ ptr: [], forwardConfirmed: false });
  });

  it("includes the SPF record's single addresses with their sources, deduplicated, MX first", async () => {
    const result = await scan('spf.test');
    expect(result.status).toBe('valid');
    expect(result.message).toBe('All 5 sending addresses have forward-confirmed reverse DNS.');
    expect(addresses(result).map((a) => [a.ip, a.source, a.forwardConfirmed])).toEqual([
      ['127.0.0.5', 'MX mx.spf.test', true],
      ['127.0.0.4', 'SPF ip4', true],
      ['::1', 'SPF ip6', true],
      ['127.0.0.6', 'SPF a', true],
      ['127.0.0.7', 'SPF a:out.spf.test', true],
    ]);
  });

  it('is missing when the domain names no sending address (include-only SPF, null MX)', async () => {
    const none = await scan('none.test');
    expect(none.status).toBe('missing');
    expect(codes(none)).toEqual(['RDNS_NO_SENDING_ADDRESS:info']);
    expect(none.value).toBeNull();
    expect(addresses(none)).toEqual([]);
    expect((await scan('nullmx.test')).status).toBe('missing');
  });

  it('reports a generic-looking PTR name as info, confirmed or not', async () => {
    const result = await scan('generic.test');
    expect(result.status).toBe('valid');
    expect(codes(result)).toEqual(['RDNS_GENERIC:info']);
    expect(result.details.findings[0]?.message).toContain('the PTR name 127-0-0-10.dynamic.isp.test looks generic');
    expect(addresses(result)[0]).toMatchObject({ generic: true, forwardConfirmed: true });
  });

  it('looks a private address up like any other and says it is private', async () => {
    const result = await scan('fcr.test', false);
    expect(result.status).toBe('valid');
    expect(codes(result)).toEqual(['RDNS_PRIVATE_ADDRESS:info']);
    expect(addresses(result)[0]).toMatchObject({ ip: '127.0.0.1', private: true, forwardConfirmed: true });
  });

  it('is unknown when the PTR lookup of every address times out, and when the MX and SPF lookups do', async () => {
    const result = await scan('slowptr.test');
    expect(result.status).toBe('unknown');
    expect(codes(result)).toEqual(['RDNS_LOOKUP_FAILED:info']);
    expect(addresses(result)[0]?.error).toMatch(/timed out/);
    const down = await scan('dnsdown.test');
    expect(down.status).toBe('unknown');
    expect(down.details['error']).toMatch(/timed out/);
  });

  it('is a warning when one of several addresses is not confirmed', async () => {
    const result = await scan('mixed.test');
    expect(result.status).toBe('warning');
    expect(result.value).toBe('1 of 2 confirmed');
    expect(codes(result)).toEqual(['RDNS_MISSING:warning']);
    expect(addresses(result).map((a) => [a.ip, a.source, a.forwardConfirmed])).toEqual([
      ['127.0.0.12', 'MX mx.mixed.test', true],
      ['127.0.0.13', 'SPF ip4', false],
    ]);
  });
});
