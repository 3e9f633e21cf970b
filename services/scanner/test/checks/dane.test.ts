import { createHash, X509Certificate } from 'node:crypto';
import { daneDetailsSchema, type DaneDetails } from '@sendwell/contracts';
import {
  createTestCa,
  dsPresentation,
  freePort,
  generateZoneKey,
  issueCert,
  signFixtureZones,
  startDnsServer,
  startMxServer,
  validity,
  type DnsFixtureRecords,
  type MxServerOptions,
  type TestCa,
  type TestCertificate,
  type TestDnsServer,
  type TestMxServer,
} from '@sendwell/testing';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { daneCheck } from '../../src/checks/dane/dane.check.js';
import { dnssecCheck, parseDsRecord, type DsRecord } from '../../src/checks/dnssec/dnssec.check.js';
import { DnssecValidator } from '../../src/checks/shared/dnssec/validator.js';
import type { CheckContext, CheckResult, ScanMemo } from '../../src/checks/types.js';
import { checkContext, TEST_HELO as HELO } from './harness.js';

/**
 * The DANE check (RFC 7672) against the fixture DNS server serving TLSA records computed here from
 * generated certificates, and real SMTP servers (smtp-server, STARTTLS) on loopback. The zones are
 * DNSSEC-signed under a fixture root whose DS is the trust anchor: the TLSA records of most domains
 * validate in the signed TLD "test"; unsigned.test and customer.test are unsigned zones, the latter
 * with its MX host in the signed zone of a provider; bogus.test's TLSA signature is broken.
 */

/** Generous: a CI run may share the CPU, and RSA handshakes are not free. */
const TIMEOUT_MS = 4_000;

type Tlsa = NonNullable<DnsFixtureRecords['TLSA']>[number];

let dns: TestDnsServer;
let anchor: DsRecord;
let ca: TestCa;
let certs: Record<'ee' | 'eeOdd' | 'ta' | 'taOtherName' | 'unused' | 'pkix' | 'plain' | 'partial' | 'provider' | 'unsigned' | 'bogus', TestCertificate>;
const servers: Array<{ close(): Promise<void> }> = [];

const der = (pem: string): Buffer => new X509Certificate(pem).raw;
const spki = (pem: string): Buffer => new X509Certificate(pem).publicKey.export({ type: 'spki', format: 'der' });
const sha256 = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');
const sha512 = (bytes: Buffer): string => createHash('sha512').update(bytes).digest('hex');
/** "3 1 1": DANE-EE, SubjectPublicKeyInfo, SHA-256. */
const ee311 = (pem: string): Tlsa => ({ usage: 3, selector: 1, matchingType: 1, data: sha256(spki(pem)) });

beforeAll(async () => {
  ca = await createTestCa({ commonName: 'Sendwell DANE CA' });
  const entries = await Promise.all(
    Object.entries({
      ee: issueCert(ca, { hostnames: ['mx.ee.test'] }),
      // Expired and issued for another name: DANE-EE ignores both (RFC 7672 §3.1.1).
      eeOdd: issueCert(ca, { hostnames: ['somewhere.else.test'], ...validity.expiredDaysAgo(10) }),
      ta: issueCert(ca, { hostnames: ['mx.ta.test'] }),
      taOtherName: issueCert(ca, { hostnames: ['mail.elsewhere.test'] }),
      unused: issueCert(ca, { hostnames: ['mx.mismatch.test'] }),
      pkix: issueCert(ca, { hostnames: ['mx.pkix.test'] }),
      plain: issueCert(ca, { hostnames: ['mx.plain.test'] }),
      partial: issueCert(ca, { hostnames: ['mx1.partial.test'] }),
      provider: issueCert(ca, { hostnames: ['mx.provider.test'] }),
      unsigned: issueCert(ca, { hostnames: ['mx.unsigned.test'] }),
      bogus: issueCert(ca, { hostnames: ['mx.bogus.test'] }),
    }).map(async ([name, pending]) => [name, await pending] as const),
  );
  certs = Object.fromEntries(entries) as typeof certs;
  const mxAt = (host: string): DnsFixtureRecords => ({ MX: [{ priority: 10, exchange: host }] });
  const soa = (zone: string): DnsFixtureRecords => ({ SOA: { mname: `ns.${zone}`, rname: `hostmaster.${zone}`, serial: 1 } });
  const caTa201: Tlsa = { usage: 2, selector: 0, matchingType: 1, data: sha256(der(ca.cert)) };
  const rootKey = generateZoneKey('.');
  anchor = parseDsRecord(dsPresentation(rootKey));
  const records: Record<string, DnsFixtureRecords> = {
    '.': soa('root.test'),
    test: soa('test'),
    // A provider's signed zone holds the MX host of customer.test, an unsigned zone: DANE validates the host's zone.
    'provider.test': soa('provider.test'),
    'mx.provider.test': { A: ['127.0.0.1'] },
    '_25._tcp.mx.provider.test': { TLSA: [ee311(certs.provider.cert)] },
    'customer.test': { ...soa('customer.test'), ...mxAt('mx.provider.test') },
    'unsigned.test': { ...soa('unsigned.test'), ...mxAt('mx.unsigned.test') },
    'mx.unsigned.test': { A: ['127.0.0.1'] },
    '_25._tcp.mx.unsigned.test': { TLSA: [ee311(certs.unsigned.cert)] },
    'bogus.test': { ...soa('bogus.test'), ...mxAt('mx.bogus.test') },
    'mx.bogus.test': { A: ['127.0.0.1'] },
    '_25._tcp.mx.bogus.test': { TLSA: [ee311(certs.bogus.cert)] },
    'ee.test': mxAt('mx.ee.test'),
    'mx.ee.test': { A: ['127.0.0.1'] },
    '_25._tcp.mx.ee.test': { TLSA: [ee311(certs.ee.cert)] },
    'eeodd.test': mxAt('mx.eeodd.test'),
    'mx.eeodd.test': { A: ['127.0.0.1'] },
    // 3 0 2: the full certificate, SHA-512; upper-case hex in the zone.
    '_25._tcp.mx.eeodd.test': { TLSA: [{ usage: 3, selector: 0, matchingType: 2, data: sha512(der(certs.eeOdd.cert)).toUpperCase() }] },
    'ta.test': mxAt('mx.ta.test'),
    'mx.ta.test': { A: ['127.0.0.1'] },
    '_25._tcp.mx.ta.test': { TLSA: [caTa201] },
    'taname.test': mxAt('mx.taname.test'),
    'mx.taname.test': { A: ['127.0.0.1'] },
    '_25._tcp.mx.taname.test': { TLSA: [caTa201] },
    'mismatch.test': mxAt('mx.mismatch.test'),
    'mx.mismatch.test': { A: ['127.0.0.1'] },
    '_25._tcp.mx.mismatch.test': { TLSA: [ee311(certs.unused.cert)] },
    'none.test': mxAt('mx.none.test'),
    'mx.none.test': { A: ['127.0.0.1'] },
    'badlen.test': mxAt('mx.badlen.test'),
    'mx.badlen.test': { A: ['127.0.0.1'] },
    '_25._tcp.mx.badlen.test': {
      TLSA: [
        { usage: 3, selector: 1, matchingType: 1, data: sha256(spki(certs.ee.cert)).slice(0, 62) },
        { usage: 4, selector: 1, matchingType: 1, data: sha256(spki(certs.ee.cert)) },
      ],
    },
    'pkix.test': mxAt('mx.pkix.test'),
    'mx.pkix.test': { A: ['127.0.0.1'] },
    '_25._tcp.mx.pkix.test': { TLSA: [ee311(certs.pkix.cert), { usage: 1, selector: 0, matchingType: 1, data: sha256(der(certs.pkix.cert)) }] },
    'closed.test': mxAt('mx.closed.test'),
    'mx.closed.test': { A: ['127.0.0.1'] },
    '_25._tcp.mx.closed.test': { TLSA: [ee311(certs.ee.cert)] },
    'plain.test': mxAt('mx.plain.test'),
    'mx.plain.test': { A: ['127.0.0.1'] },
    '_25._tcp.mx.plain.test': { TLSA: [ee311(certs.plain.cert)] },
    'partial.test': { MX: [{ priority: 10, exchange: 'mx1.partial.test' }, { priority: 20, exchange: 'mx2.partial.test' }] },
    'mx1.partial.test': { A: ['127.0.0.1'] },
    'mx2.partial.test': { A: ['127.0.0.1'] },
    '_25._tcp.mx1.partial.test': { TLSA: [ee311(certs.partial.cert)] },
    'slowdns.test': mxAt('mx.slowdns.test'),
    'mx.slowdns.test': { A: ['127.0.0.1'] },
    'nullmx.test': { MX: [{ priority: 0, exchange: '.' }] },
  };
  const signed = signFixtureZones(records, [
    { name: '.', keys: [rootKey] },
    { name: 'test', keys: [generateZoneKey('test')] },
    { name: 'provider.test', keys: [generateZoneKey('provider.test')] },
    { name: 'customer.test' },
    { name: 'unsigned.test' },
    { name: 'bogus.test', keys: [generateZoneKey('bogus.test')] },
  ]);
  // bogus.test: the signature over its MX host's TLSA records no longer matches them.
  const tlsaSig = signed['_25._tcp.mx.bogus.test']?.RRSIG?.find((sig) => sig.typeCovered === 'TLSA');
  if (!tlsaSig) throw new Error('no RRSIG over the TLSA records of mx.bogus.test');
  tlsaSig.signature = Buffer.alloc(tlsaSig.signature.length, 7);
  dns = await startDnsServer({ records: signed, behaviours: { '_25._tcp.mx.slowdns.test': 'timeout' } });
}, 60_000);

afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()));
  await dns?.close();
});

async function mx(options: MxServerOptions): Promise<TestMxServer> {
  const server = await startMxServer(options);
  servers.push(server);
  return server;
}

function context(domain: string, port: number, options: { trustAnchors?: DsRecord[]; memo?: ScanMemo } = {}): CheckContext {
  return checkContext(domain, dns, {
    // Trusting the test CA changes nothing: DANE trusts the TLSA records, not a CA list.
    config: { tlsExtraCa: ca.cert, smtpPort: port, timeoutMs: TIMEOUT_MS, dnssecTrustAnchors: options.trustAnchors ?? [anchor] },
    ...(options.memo ? { memo: options.memo } : {}),
  });
}

async function scan(domain: string, port: number, options: { trustAnchors?: DsRecord[] } = {}): Promise<CheckResult<DaneDetails>> {
  const result = await daneCheck(context(domain, port, options));
  expect(() => daneDetailsSchema.parse(result.details)).not.toThrow();
  expect(result.type).toBe('dane');
  return result;
}

const codes = (result: CheckResult<DaneDetails>) => result.details.findings.map((f) => `${f.code}:${f.severity}`);
const host = (result: CheckResult<DaneDetails>, index = 0) => result.details.hosts?.[index];
const finding = (result: CheckResult<DaneDetails>, code: string) => result.details.findings.find((f) => f.code === code);

describe('daneCheck', () => {
  it('is valid when a DANE-EE 3 1 1 record matches the key the MX host presents', async () => {
    const server = await mx({ certificate: certs.ee, name: 'mx.ee.test' });
    const result = await scan('ee.test', server.port);
    expect(result.status).toBe('valid');
    // The TLSA records validate (the signed zone test): nothing to add.
    expect(codes(result)).toEqual([]);
    const record = `3 1 1 ${sha256(spki(certs.ee.cert))}`;
    expect(host(result)).toEqual({
      exchange: 'mx.ee.test',
      ip: '127.0.0.1',
      tlsa: [{ usage: 3, selector: 1, matchingType: 1, data: sha256(spki(certs.ee.cert)) }],
      matched: true,
      matchedRecord: record,
      presentedRecord: record,
      dnssec: 'secure',
      error: null,
    });
    expect(result.value).toBe('TLSA on 1 of 1 MX host, 1 matched');
    expect(result.message).toBe(`The TLSA record ${record.slice(0, 22)}… of mx.ee.test matches the certificate it presents after STARTTLS.`);
    expect(result.recommendation).toBeNull();
    expect(server.tlsSessions).toBe(1);
    expect(server.ehloNames).toEqual([HELO, HELO]);
  });

  it('ignores the name and the dates of a DANE-EE certificate (3 0 2 of an expired certificate for another name)', async () => {
    const server = await mx({ certificate: certs.eeOdd, name: 'mx.eeodd.test' });
    const result = await scan('eeodd.test', server.port);
    expect(result.status).toBe('valid');
    expect(codes(result)).toEqual([]);
    expect(host(result)?.matchedRecord).toBe(`3 0 2 ${sha512(der(certs.eeOdd.cert))}`);
  });

  it('is valid when a DANE-TA 2 0 1 record matches the CA certificate the server sends in its chain', async () => {
    const server = await mx({ certificate: certs.ta, chain: ca.cert, name: 'mx.ta.test' });
    const result = await scan('ta.test', server.port);
    expect(result.status).toBe('valid');
    expect(codes(result)).toEqual([]);
    expect(host(result)).toMatchObject({ matched: true, matchedRecord: `2 0 1 ${sha256(der(ca.cert))}`, presentedRecord: `3 1 1 ${sha256(spki(certs.ta.cert))}` });
  });

  it('is an error when the server leaves the DANE-TA trust anchor out of its chain (not taken from a CA list)', async () => {
    const server = await mx({ certificate: certs.ta, name: 'mx.ta.test' });
    const result = await scan('ta.test', server.port);
    expect(result.status).toBe('error');
    expect(codes(result)).toEqual(['DANE_MISMATCH:error']);
    expect(result.message).toContain('A DANE-TA(2) record matches only a CA certificate the server sends in its chain.');
    expect(result.recommendation).toMatch(/send the certificate of the CA .* in its chain \(RFC 7672 §3\.1\.2\)/);
    expect(host(result)).toMatchObject({ matched: false, matchedRecord: null });
  });

  it('checks the name with DANE-TA: a certificate for another name is an error', async () => {
    const server = await mx({ certificate: certs.taOtherName, chain: ca.cert, name: 'mx.taname.test' });
    const result = await scan('taname.test', server.port);
    expect(result.status).toBe('error');
    expect(codes(result)).toEqual(['DANE_TA_NAME_MISMATCH:error']);
    expect(result.message).toContain('the certificate is issued for mail.elsewhere.test, not for mx.taname.test');
    expect(finding(result, 'DANE_TA_NAME_MISMATCH')?.rfc).toBe('RFC 7672 §3.2');
    expect(host(result)?.matched).toBe(false);
  });

  it('is an error when no record matches the presented certificate; says which record would', async () => {
    const server = await mx({ certificate: certs.ee, name: 'mx.mismatch.test' });
    const result = await scan('mismatch.test', server.port);
    expect(result.status).toBe('error');
    expect(codes(result)).toEqual(['DANE_MISMATCH:error']);
    const presented = `3 1 1 ${sha256(spki(certs.ee.cert))}`;
    expect(result.message).toBe(
      `mx.mismatch.test: its TLSA record does not match the certificate the host presents after STARTTLS (its key gives ${presented}). DANE senders do not deliver mail to it.`,
    );
    expect(finding(result, 'DANE_MISMATCH')?.rfc).toBe('RFC 7672 §2.2');
    expect(result.recommendation).toContain(`Publish a TLSA record for the key the server presents (${presented}) at _25._tcp.mx.mismatch.test`);
    expect(host(result)).toMatchObject({ matched: false, matchedRecord: null, presentedRecord: presented, error: 'no TLSA record matches the presented certificates' });
  });

  it('is missing without TLSA records, and does not connect to the MX host', async () => {
    const server = await mx({ certificate: certs.ee, name: 'mx.none.test' });
    const result = await scan('none.test', server.port);
    expect(result.status).toBe('missing');
    expect(codes(result)).toEqual(['DANE_MISSING:info']);
    expect(result.message).toContain('DANE needs the MX hosts\' zones signed with DNSSEC; it is optional hardening');
    expect(result.recommendation).toMatch(/^Optional: /);
    expect(result.value).toBeNull();
    expect(host(result)).toEqual({ exchange: 'mx.none.test', ip: null, tlsa: [], matched: null, matchedRecord: null, presentedRecord: null, dnssec: null, error: null });
    expect(server.connections).toBe(0);
  });

  it('is an error for malformed records: a SHA-256 digest of 31 bytes, an undefined usage', async () => {
    const server = await mx({ certificate: certs.ee, name: 'mx.badlen.test' });
    const result = await scan('badlen.test', server.port);
    expect(result.status).toBe('error');
    expect(codes(result)).toEqual(['DANE_TLSA_INVALID:error', 'DANE_TLSA_INVALID:error', 'DANE_NO_USABLE_RECORDS:warning']);
    const [length, usage] = result.details.findings;
    expect(length?.message).toContain('a SHA-256 digest (matching type 1) is 32 bytes, but the record holds 31');
    expect(length?.rfc).toBe('RFC 6698 §2.1.3');
    expect(usage?.message).toContain('certificate usage 4 is not defined');
    expect(usage?.rfc).toBe('RFC 6698 §2.1.1');
    expect(host(result)).toMatchObject({ matched: null, presentedRecord: `3 1 1 ${sha256(spki(certs.ee.cert))}` });
    expect(host(result)?.tlsa).toHaveLength(2);
  });

  it('warns about PKIX usages (RFC 7672 §3.1.3) even when a DANE-EE record matches', async () => {
    const server = await mx({ certificate: certs.pkix, name: 'mx.pkix.test' });
    const result = await scan('pkix.test', server.port);
    expect(result.status).toBe('warning');
    expect(codes(result)).toEqual(['DANE_PKIX_USAGE:warning']);
    expect(result.message).toContain('a TLSA record uses PKIX-EE(1), which SMTP senders do not use');
    expect(finding(result, 'DANE_PKIX_USAGE')?.rfc).toBe('RFC 7672 §3.1.3');
    expect(host(result)).toMatchObject({ matched: true, matchedRecord: `3 1 1 ${sha256(spki(certs.pkix.cert))}` });
  });

  it('is unknown when the MX host does not answer on the port: never blames the domain for our network', async () => {
    const port = await freePort();
    const result = await scan('closed.test', port);
    expect(result.status).toBe('unknown');
    expect(codes(result)).toEqual(['DANE_HOST_UNREACHABLE:info']);
    expect(result.message).toBe(
      `No MX host of closed.test with TLSA records could be probed on port ${port}, so whether the records match was not checked; many networks block outbound port ${port}.`,
    );
    expect(finding(result, 'DANE_HOST_UNREACHABLE')?.message).toContain('may be the scanner\'s network rather than the domain');
    expect(host(result)).toMatchObject({ ip: '127.0.0.1', matched: null, error: 'connection refused' });
  });

  it('is an error when a host with TLSA records does not offer STARTTLS', async () => {
    const server = await mx({ name: 'mx.plain.test' });
    const result = await scan('plain.test', server.port);
    expect(result.status).toBe('error');
    expect(codes(result)).toEqual(['DANE_STARTTLS_MISSING:error']);
    expect(finding(result, 'DANE_STARTTLS_MISSING')?.rfc).toBe('RFC 7672 §2.2');
    expect(host(result)).toMatchObject({ matched: null, error: 'STARTTLS not offered' });
  });

  it('warns about an MX host without TLSA records next to one with them', async () => {
    const server = await mx({ certificate: certs.partial, name: 'mx1.partial.test' });
    const result = await scan('partial.test', server.port);
    expect(result.status).toBe('warning');
    expect(codes(result)).toEqual(['DANE_PARTIAL:warning']);
    expect(result.message).toMatch(/^mx2\.partial\.test: the host publishes no TLSA records/);
    expect(result.details.hosts?.map((h) => [h.exchange, h.matched])).toEqual([
      ['mx1.partial.test', true],
      ['mx2.partial.test', null],
    ]);
    // Only the host with TLSA records is probed.
    expect(server.connections).toBe(1);
  });

  it('is unknown when the TLSA lookup times out', async () => {
    const result = await scan('slowdns.test', 1);
    expect(result.status).toBe('unknown');
    expect(codes(result)).toEqual(['DANE_LOOKUP_FAILED:info']);
    expect(result.message).toBe('The TLSA records of the MX hosts of slowdns.test could not be looked up, so DANE was not checked.');
    expect(host(result)?.error).toBe('TLSA lookup timed out');
  });

  it('is missing for a null MX', async () => {
    const result = await scan('nullmx.test', 1);
    expect(result.status).toBe('missing');
    expect(codes(result)).toEqual(['DANE_NO_MX:info']);
  });
});

describe('daneCheck with the DNSSEC verdict of the TLSA records', () => {
  it("validates the MX host's own zone: a provider's signed zone, for a domain whose zone is unsigned", async () => {
    const server = await mx({ certificate: certs.provider, name: 'mx.provider.test' });
    const result = await scan('customer.test', server.port);
    expect(result.status).toBe('valid');
    expect(codes(result)).toEqual([]);
    expect(host(result)).toMatchObject({ exchange: 'mx.provider.test', matched: true, dnssec: 'secure', error: null });
  });

  it('warns that TLSA records in an unsigned zone are ignored by senders, and says they would match once signed', async () => {
    const server = await mx({ certificate: certs.unsigned, name: 'mx.unsigned.test' });
    const result = await scan('unsigned.test', server.port);
    expect(result.status).toBe('warning');
    expect(codes(result)).toEqual(['DANE_TLSA_UNSIGNED:warning']);
    expect(finding(result, 'DANE_TLSA_UNSIGNED')?.rfc).toBe('RFC 7672 §2.2');
    expect(result.message).toBe(
      'mx.unsigned.test: the TLSA records at _25._tcp.mx.unsigned.test are in unsigned.test, which is not DNSSEC-signed (test publishes no DS record for unsigned.test). Senders use TLSA records only when they validate, so they ignore these and deliver without DANE. They match the certificate the host presents, so signing the zone puts DANE in effect.',
    );
    expect(result.recommendation).toMatch(/^Sign unsigned\.test with DNSSEC and publish its DS record at the parent .*, or remove the TLSA records at _25\._tcp\.mx\.unsigned\.test\.$/);
    expect(result.value).toBe('TLSA on 1 of 1 MX host');
    expect(host(result)).toMatchObject({ matched: true, dnssec: 'insecure', error: 'the TLSA records are not DNSSEC-signed' });
  });

  it('warns, not fails, about unsigned TLSA records that do not match: to be corrected before the zone is signed', async () => {
    const server = await mx({ certificate: certs.unused, name: 'mx.unsigned.test' });
    const result = await scan('unsigned.test', server.port);
    expect(result.status).toBe('warning');
    expect(codes(result)).toEqual(['DANE_TLSA_UNSIGNED:warning']);
    expect(result.message).toContain(
      'As published they would not authenticate the host (no TLSA record matches the presented certificates): correct them before the zone is signed, or DANE senders will stop delivering to it.',
    );
    expect(host(result)).toMatchObject({ matched: false, dnssec: 'insecure' });
  });

  it('is an error when the TLSA records fail DNSSEC validation (bogus), though they match the certificate', async () => {
    const server = await mx({ certificate: certs.bogus, name: 'mx.bogus.test' });
    const result = await scan('bogus.test', server.port);
    expect(result.status).toBe('error');
    expect(codes(result)).toEqual(['DANE_TLSA_BOGUS:error']);
    expect(finding(result, 'DANE_TLSA_BOGUS')?.rfc).toBe('RFC 7672 §2.1.1');
    expect(result.message).toMatch(
      /^mx\.bogus\.test: the TLSA records at _25\._tcp\.mx\.bogus\.test fail DNSSEC validation \(bogus\): the RRSIG over _25\._tcp\.mx\.bogus\.test TLSA by key tag \d+ does not verify\. Senders that validate DNSSEC cannot use them and do not deliver mail to this host/,
    );
    expect(result.recommendation).toBe('Fix the DNSSEC signatures of bogus.test (the DNSSEC check names the fault), or remove the TLSA records at _25._tcp.mx.bogus.test.');
    expect(host(result)).toMatchObject({ matched: true, dnssec: 'bogus', error: 'the TLSA records fail DNSSEC validation (bogus)' });
  });

  it('keeps DANE_DNSSEC_NOT_VERIFIED when the validation cannot decide (a trust anchor that matches no root key), judging the records as given', async () => {
    const server = await mx({ certificate: certs.ee, name: 'mx.ee.test' });
    const result = await scan('ee.test', server.port, { trustAnchors: [parseDsRecord(dsPresentation(generateZoneKey('.')))] });
    expect(result.status).toBe('valid');
    expect(codes(result)).toEqual(['DANE_DNSSEC_NOT_VERIFIED:info']);
    expect(finding(result, 'DANE_DNSSEC_NOT_VERIFIED')).toMatchObject({ rfc: 'RFC 7672 §2.1' });
    expect(finding(result, 'DANE_DNSSEC_NOT_VERIFIED')?.message).toMatch(
      /^Whether the TLSA answers are DNSSEC-signed and validate could not be checked \(mx\.ee\.test: no DNSKEY of \. matches the trust anchor \(key tag \d+\)\): senders use TLSA records only from a signed zone, and ignore them otherwise\.$/,
    );
    expect(host(result)).toMatchObject({ matched: true, dnssec: 'unknown' });
  });

  it("validates each TLSA RRset once per scan: the DANE and DNSSEC checks share the scan's validator", async () => {
    const server = await mx({ certificate: certs.ee, name: 'mx.ee.test' });
    const validated = vi.spyOn(DnssecValidator.prototype, 'validateRrset');
    const tlsaValidations = () => validated.mock.calls.filter(([rrset]) => rrset[0]?.type === 'TLSA').length;
    try {
      const memo: ScanMemo = {};
      const ctx = context('ee.test', server.port, { memo });
      const [dane, dnssec] = await Promise.all([daneCheck(ctx), dnssecCheck(ctx)]);
      expect(dane.status).toBe('valid');
      expect(dnssec.details.signedRecords).toContainEqual(expect.objectContaining({ name: '_25._tcp.mx.ee.test', type: 'TLSA', state: 'secure' }));
      expect(memo.dnssecValidator).toBeInstanceOf(DnssecValidator);
      expect(tlsaValidations()).toBe(1);

      // Without a memo (each check run alone), each validates on its own.
      validated.mockClear();
      const alone = context('ee.test', server.port);
      await Promise.all([daneCheck(alone), dnssecCheck(alone)]);
      expect(tlsaValidations()).toBe(2);
    } finally {
      validated.mockRestore();
    }
  });
});
