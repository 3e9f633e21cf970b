import { dnssecDetailsSchema } from '@sendwell/contracts';
import {
  DNSSEC_ALGORITHMS,
  dsPresentation,
  dsRecord,
  generateZoneKey,
  keyTrapKey,
  keyTrapSignatures,
  signFixtureZones,
  startDnsServer,
  ZONE_KEY_FLAGS,
  type DnsFixtureRecords,
  type FixtureZone,
  type TestDnsServer,
  type ZoneSigningKey,
} from '@sendwell/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DNSSEC_LIMITS, VerificationBudget } from '../../src/checks/shared/dnssec/budget.js';
import { dnssecCheckWith, parseDsRecord, type DsRecord } from '../../src/checks/dnssec/dnssec.check.js';
import { DnssecValidator } from '../../src/checks/shared/dnssec/validator.js';
import type { DnssecResult } from '../../src/checks/dnssec/verdict.js';
import type { ScanConfig } from '../../src/checks/types.js';
import { createResolver } from '../../src/dns/resolver.js';
import { SharedAnswerCache } from '../../src/dns/shared-cache.js';

/**
 * The DNSSEC check against the fixture DNS server serving zones signed here: a fixture root "." whose
 * DS is the trust anchor, a TLD "test." signed with RSA/SHA-256, and zones below it, each showing one
 * outcome: validated, unsigned, bogus, expired, DS mismatch, unsupported algorithm …
 */

const TTL = 300;
const DAY = 86_400_000;

let dns: TestDnsServer;
let anchor: DsRecord;
let rootKey: ZoneSigningKey;
let signedRecords: Record<string, DnsFixtureRecords>;

/** A small mail domain: SOA, NS, MX, SPF, DMARC, the MX host's address. */
function mailZone(name: string, extra: Record<string, DnsFixtureRecords> = {}): Record<string, DnsFixtureRecords> {
  return {
    [name]: {
      SOA: { mname: `ns.${name}`, rname: `hostmaster.${name}`, serial: 1 },
      NS: [`ns.${name}`],
      MX: [{ priority: 10, exchange: `mx.${name}` }],
      TXT: ['v=spf1 -all'],
    },
    [`_dmarc.${name}`]: { TXT: ['v=DMARC1; p=reject'] },
    [`mx.${name}`]: { A: ['127.0.0.1'] },
    ...extra,
  };
}

function signatureOf(records: Record<string, DnsFixtureRecords>, owner: string, type: string) {
  const sig = records[owner]?.RRSIG?.find((entry) => entry.typeCovered === type);
  if (!sig) throw new Error(`no RRSIG ${owner} ${type}`);
  return sig;
}

beforeAll(async () => {
  rootKey = generateZoneKey('.');
  const tldKey = generateZoneKey('test', { algorithm: DNSSEC_ALGORITHMS.RSASHA256 });
  const keys = {
    signedKsk: generateZoneKey('signed.test'),
    signedZsk: generateZoneKey('signed.test', { flags: ZONE_KEY_FLAGS }),
    bogus: generateZoneKey('bogus.test'),
    expired: generateZoneKey('expired.test'),
    expiring: generateZoneKey('expiring.test'),
    mismatch: generateZoneKey('mismatch.test'),
    unknown: generateZoneKey('unknown-alg.test', { algorithm: 200 }),
    ed: generateZoneKey('ed.test', { algorithm: DNSSEC_ALGORITHMS.ED25519 }),
    p384: generateZoneKey('p384.test', { algorithm: DNSSEC_ALGORITHMS.ECDSAP384SHA384 }),
    sha1: generateZoneKey('sha1.test', { algorithm: DNSSEC_ALGORITHMS.RSASHA1, rsaBits: 1024 }),
    sha1ds: generateZoneKey('sha1-ds.test'),
    nosig: generateZoneKey('nosig.test'),
    orphan: generateZoneKey('no-dnskey.test'),
    danebogus: generateZoneKey('dane-bogus.test'),
    cname: generateZoneKey('cname.test'),
    wild: generateZoneKey('wild.test'),
    trapKsk: generateZoneKey('keytrap.test'),
    trapZsk: generateZoneKey('keytrap.test', { algorithm: DNSSEC_ALGORITHMS.RSASHA256, flags: ZONE_KEY_FLAGS }),
    tagsKsk: generateZoneKey('keytags.test'),
    tagsZsk: generateZoneKey('keytags.test', { algorithm: DNSSEC_ALGORITHMS.RSASHA256, flags: ZONE_KEY_FLAGS }),
  };
  // KeyTrap (CVE-2023-50387), as the paper builds it: keys sharing the ZSK's tag ahead of it, with
  // 3071-bit exponents (~8 ms a verification) in keytrap.test, of ordinary cost in keytags.test.
  const trapKeys = Array.from({ length: 20 }, () => keyTrapKey('keytrap.test', { keyTag: keys.trapZsk.keyTag }));
  const tagKeys = Array.from({ length: 12 }, () => keyTrapKey('keytags.test', { keyTag: keys.tagsZsk.keyTag, exponentBits: 17, modulusBits: 2048 }));
  const trapMx = { MX: [{ priority: 10, exchange: 'mx.keytrap.test' }] };
  const wrongDs = { ...dsRecord(keys.mismatch), digest: Buffer.alloc(32, 0x42) };

  const records: Record<string, DnsFixtureRecords> = {
    '.': { SOA: { mname: 'a.root.test', rname: 'nstld.root.test', serial: 2026 }, NS: ['a.root.test'] },
    test: { SOA: { mname: 'ns.test', rname: 'hostmaster.test', serial: 7 }, NS: ['ns.test'] },
    ...mailZone('signed.test', {
      '_25._tcp.mx.signed.test': { TLSA: [{ usage: 3, selector: 1, matchingType: 1, data: 'ab'.repeat(32) }] },
      'www.signed.test': { A: ['127.0.0.1'], MX: [{ priority: 10, exchange: 'mx.signed.test' }] },
    }),
    ...mailZone('unsigned.test', { '_25._tcp.mx.unsigned.test': { TLSA: [{ usage: 3, selector: 1, matchingType: 1, data: 'cd'.repeat(32) }] } }),
    ...mailZone('bogus.test'),
    ...mailZone('expired.test'),
    ...mailZone('expiring.test'),
    ...mailZone('mismatch.test', { 'mismatch.test': { ...mailZone('mismatch.test')['mismatch.test'], DS: [wrongDs] } }),
    ...mailZone('unknown-alg.test'),
    ...mailZone('ed.test'),
    ...mailZone('p384.test'),
    ...mailZone('sha1.test'),
    ...mailZone('sha1-ds.test'),
    ...mailZone('nosig.test'),
    // A DS at the parent, and a zone served unsigned: the keys were dropped without removing the DS.
    ...mailZone('no-dnskey.test', { 'no-dnskey.test': { ...mailZone('no-dnskey.test')['no-dnskey.test'], DS: [dsRecord(keys.orphan)] } }),
    // A signed domain whose MX host's TLSA signature is broken.
    ...mailZone('dane-bogus.test', { '_25._tcp.mx.dane-bogus.test': { TLSA: [{ usage: 3, selector: 1, matchingType: 1, data: 'ef'.repeat(32) }] } }),
    ...mailZone('slow.test'),
    ...mailZone('cname.test', { '_dmarc.cname.test': { CNAME: '_dmarc.unsigned.test' } }),
    ...mailZone('wild.test', { '*.wild.test': { MX: [{ priority: 5, exchange: 'mx.wild.test' }] } }),
    ...mailZone('keytrap.test', {
      'keytrap.test': {
        ...mailZone('keytrap.test')['keytrap.test'],
        DNSKEY: [keys.trapKsk, ...trapKeys, keys.trapZsk].map((key) => key.dnskey),
        // 40 signatures by the colliding tag ahead of the real one, which signFixtureZones adds last.
        RRSIG: keyTrapSignatures('keytrap.test', 'MX', trapMx, keys.trapZsk, 40),
      },
    }),
    ...mailZone('keytags.test', {
      'keytags.test': { ...mailZone('keytags.test')['keytags.test'], DNSKEY: [keys.tagsKsk, ...tagKeys, keys.tagsZsk].map((key) => key.dnskey) },
    }),
    // An unsigned TLD.
    plain: { SOA: { mname: 'ns.plain', rname: 'hostmaster.plain', serial: 1 }, NS: ['ns.plain'] },
    ...mailZone('domain.plain'),
  };
  const zones: FixtureZone[] = [
    { name: '.', keys: [rootKey] },
    { name: 'test', keys: [tldKey] },
    { name: 'plain' },
    { name: 'domain.plain' },
    { name: 'signed.test', keys: [keys.signedKsk, keys.signedZsk] },
    { name: 'unsigned.test' },
    { name: 'bogus.test', keys: [keys.bogus] },
    { name: 'expired.test', keys: [keys.expired], inception: new Date(Date.now() - 40 * DAY), expiration: new Date(Date.now() - 10 * DAY) },
    { name: 'expiring.test', keys: [keys.expiring], inception: new Date(Date.now() - 25 * DAY), expiration: new Date(Date.now() + 2 * DAY) },
    { name: 'mismatch.test', keys: [keys.mismatch] },
    { name: 'unknown-alg.test', keys: [keys.unknown] },
    { name: 'ed.test', keys: [keys.ed] },
    { name: 'p384.test', keys: [keys.p384], dsDigestTypes: [4] },
    { name: 'sha1.test', keys: [keys.sha1] },
    { name: 'sha1-ds.test', keys: [keys.sha1ds], dsDigestTypes: [1] },
    { name: 'nosig.test', keys: [keys.nosig] },
    { name: 'no-dnskey.test' },
    { name: 'dane-bogus.test', keys: [keys.danebogus] },
    { name: 'slow.test' },
    { name: 'cname.test', keys: [keys.cname] },
    { name: 'wild.test', keys: [keys.wild] },
    { name: 'keytrap.test', keys: [keys.trapKsk, keys.trapZsk] },
    { name: 'keytags.test', keys: [keys.tagsKsk, keys.tagsZsk] },
  ];
  const signed = signFixtureZones(records, zones, { ttl: TTL });

  // bogus.test: one byte of the MX signature flipped.
  const mxSig = signatureOf(signed, 'bogus.test', 'MX');
  mxSig.signature = Buffer.from(mxSig.signature);
  mxSig.signature[10] = (mxSig.signature[10] as number) ^ 0xff;
  // nosig.test: the MX RRset served without its RRSIG.
  const nosig = signed['nosig.test'] as DnsFixtureRecords;
  nosig.RRSIG = nosig.RRSIG?.filter((sig) => sig.typeCovered !== 'MX');
  // dane-bogus.test: the TLSA signature of its MX host broken.
  const tlsaSig = signatureOf(signed, '_25._tcp.mx.dane-bogus.test', 'TLSA');
  tlsaSig.signature = Buffer.alloc(tlsaSig.signature.length, 7);

  signedRecords = signed;
  dns = await startDnsServer({ records: signed, ttl: TTL, behaviours: { 'slow.test': 'timeout' } });
  anchor = parseDsRecord(dsPresentation(rootKey));
});

afterAll(async () => {
  await dns?.close();
});

const config = {} as ScanConfig;

function resolver(sharedCache?: SharedAnswerCache) {
  return createResolver({ servers: [{ host: dns.host, port: dns.port }], timeoutMs: 400, ...(sharedCache ? { sharedCache } : {}) });
}

async function check(domain: string, anchors: DsRecord[] = [anchor], sharedCache?: SharedAnswerCache): Promise<DnssecResult> {
  const result = await dnssecCheckWith(anchors)({ domain, resolver: resolver(sharedCache), config, dkimSelectors: [] });
  // Every result fits the contracts' schema.
  dnssecDetailsSchema.parse(result.details);
  return result;
}

const codes = (result: DnssecResult) => result.details.findings.map((finding) => finding.code);

describe('DNSSEC check', () => {
  it('validates a signed zone from the trust anchor through DS and DNSKEY to its SOA, MX, TXT and TLSA records', async () => {
    const result = await check('signed.test');
    expect(result).toMatchObject({ type: 'dnssec', status: 'valid', value: 'signed (ECDSA P-256/SHA-256)' });
    expect(result.message).toContain('validates');
    expect(result.details.state).toBe('secure');
    expect(result.details.trustAnchor).toEqual([dsPresentation(rootKey)]);
    expect(result.details.chain?.map((link) => [link.zone, link.validated, link.keyAlgorithms])).toEqual([
      ['.', true, [13]],
      ['test', true, [8]],
      ['signed.test', true, [13]],
    ]);
    expect(result.details.chain?.[2]?.dsDigestTypes).toEqual([2]);
    const records = result.details.signedRecords?.map((record) => `${record.name} ${record.type} ${record.validated}`);
    expect(records).toEqual([
      'signed.test SOA true',
      'signed.test MX true',
      'signed.test TXT true',
      '_dmarc.signed.test TXT true',
      '_25._tcp.mx.signed.test TLSA true',
    ]);
    expect(Date.parse(result.details.signedRecords?.[0]?.expiresAt ?? '')).toBeGreaterThan(Date.now() + 20 * DAY);
    expect(codes(result)).toEqual([]);
  });

  it('asks with DNSSEC OK and Checking Disabled set', async () => {
    dns.resetLog();
    await check('signed.test');
    const dnssecQueries = dns.queryLog.filter((entry) => entry.type === 'DS' || entry.type === 'DNSKEY');
    expect(dnssecQueries.length).toBeGreaterThan(0);
    expect(dnssecQueries.every((entry) => entry.dnssecOk && entry.checkingDisabled)).toBe(true);
  });

  it('validates a name inside a signed zone in that zone (the SOA read at its apex)', async () => {
    const result = await check('www.signed.test');
    expect(result.status).toBe('valid');
    expect(result.details.zone).toBe('signed.test');
    expect(result.details.signedRecords?.map((record) => `${record.name} ${record.type}`)).toEqual(['signed.test SOA', 'www.signed.test MX', '_25._tcp.mx.signed.test TLSA']);
  });

  it('validates records synthesised from a wildcard, signed as the wildcard (RFC 4035 §5.3.2)', async () => {
    const result = await check('www.wild.test');
    expect(result.status).toBe('valid');
    expect(result.details.signedRecords?.map((record) => `${record.name} ${record.type} ${record.validated}`)).toEqual(['wild.test SOA true', 'www.wild.test MX true']);
  });

  it('reports an unsigned zone below a signed parent as missing, with DNSSEC_UNSIGNED', async () => {
    const result = await check('unsigned.test');
    expect(result).toMatchObject({ status: 'missing', value: 'unsigned' });
    expect(result.details.state).toBe('insecure');
    expect(result.details.findings[0]).toMatchObject({ code: 'DNSSEC_UNSIGNED', severity: 'info', rfc: 'RFC 4033 §5' });
    expect(result.message).toContain('test publishes no DS record for unsigned.test');
    expect(result.details.chain?.map((link) => [link.zone, link.state])).toEqual([
      ['.', 'secure'],
      ['test', 'secure'],
      ['unsigned.test', 'insecure'],
    ]);
    // The MX host's TLSA records sit in the unsigned zone: DANE does not apply.
    expect(codes(result)).toContain('DNSSEC_TLSA_INSECURE');
  });

  it('reports a domain under an unsigned TLD as unsigned at the TLD', async () => {
    const result = await check('domain.plain');
    expect(result.status).toBe('missing');
    expect(result.details.zone).toBe('plain');
    expect(result.message).toContain('. publishes no DS record for plain');
  });

  it('reports a bad signature as an error (bogus)', async () => {
    const result = await check('bogus.test');
    expect(result).toMatchObject({ status: 'error', value: 'bogus' });
    expect(result.details.state).toBe('bogus');
    expect(result.details.findings[0]).toMatchObject({ code: 'DNSSEC_SIGNATURE_INVALID', severity: 'error', rfc: 'RFC 4035 §5.3.3' });
    expect(result.message).toContain('bogus.test MX');
    expect(result.details.signedRecords?.find((record) => record.type === 'MX')).toMatchObject({ validated: false, state: 'bogus' });
    expect(result.details.signedRecords?.find((record) => record.type === 'SOA')).toMatchObject({ validated: true });
  });

  it('reports expired signatures as an error', async () => {
    const result = await check('expired.test');
    expect(result.status).toBe('error');
    expect(result.details.findings[0]).toMatchObject({ code: 'DNSSEC_SIGNATURE_EXPIRED', severity: 'error', rfc: 'RFC 4035 §5.3.1' });
    expect(result.message).toContain('expired on');
    expect(result.details.chain?.at(-1)).toMatchObject({ zone: 'expired.test', validated: false, state: 'bogus' });
  });

  it('warns about signatures about to expire', async () => {
    const result = await check('expiring.test');
    expect(result.status).toBe('warning');
    expect(codes(result)).toEqual(['DNSSEC_SIGNATURE_EXPIRING']);
    expect(result.message).toMatch(/^The RRSIG over expiring\.test \w+ expires in (4\d hours|2 days)/);
  });

  it('reports a DS that matches no key of the zone as an error', async () => {
    const result = await check('mismatch.test');
    expect(result.status).toBe('error');
    expect(result.details.findings[0]).toMatchObject({ code: 'DNSSEC_DS_MISMATCH', rfc: 'RFC 4035 §5.2' });
    expect(result.recommendation).toContain('registrar');
  });

  it('reports a DS for a zone served without DNSKEY records as an error', async () => {
    const result = await check('no-dnskey.test');
    expect(result.status).toBe('error');
    expect(codes(result)).toEqual(['DNSSEC_DNSKEY_MISSING']);
  });

  it('reports an RRset served without its RRSIG in a signed zone as an error', async () => {
    const result = await check('nosig.test');
    expect(result.status).toBe('error');
    expect(result.details.findings[0]).toMatchObject({ code: 'DNSSEC_RRSIG_MISSING', severity: 'error' });
  });

  it('treats a zone signed only with an unknown algorithm as insecure, with a warning (RFC 4035 §5.2)', async () => {
    const result = await check('unknown-alg.test');
    expect(result).toMatchObject({ status: 'warning', value: 'insecure' });
    expect(result.details.state).toBe('insecure');
    expect(result.details.findings[0]).toMatchObject({ code: 'DNSSEC_ALGORITHM_UNSUPPORTED', severity: 'warning', rfc: 'RFC 4035 §5.2' });
    expect(result.message).toContain('algorithm 200');
  });

  it('validates Ed25519 and ECDSA P-384 with a SHA-384 DS', async () => {
    expect((await check('ed.test')).value).toBe('signed (Ed25519)');
    const p384 = await check('p384.test');
    expect(p384).toMatchObject({ status: 'valid', value: 'signed (ECDSA P-384/SHA-384)' });
    expect(p384.details.chain?.at(-1)?.dsDigestTypes).toEqual([4]);
  });

  it('validates RSA/SHA-1 with a deprecation warning, and warns about a SHA-1-only DS (RFC 8624)', async () => {
    const sha1 = await check('sha1.test');
    expect(sha1.status).toBe('warning');
    expect(sha1.details.findings[0]).toMatchObject({ code: 'DNSSEC_ALGORITHM_DEPRECATED', rfc: 'RFC 8624 §3.1' });
    const ds = await check('sha1-ds.test');
    expect(ds.status).toBe('warning');
    expect(codes(ds)).toEqual(['DNSSEC_DS_SHA1']);
  });

  it("reports a bogus TLSA RRset of an MX host as an error, the domain's own records being fine", async () => {
    const result = await check('dane-bogus.test');
    expect(result.status).toBe('error');
    expect(result.details.findings[0]).toMatchObject({ code: 'DNSSEC_SIGNATURE_INVALID' });
    expect(result.message).toContain('_25._tcp.mx.dane-bogus.test TLSA');
    expect(result.details.signedRecords?.filter((record) => record.validated).map((record) => record.type)).toEqual(['SOA', 'MX', 'TXT', 'TXT']);
  });

  it("is unknown when the trust anchor matches no root key: the scanner's fault, not the domain's", async () => {
    const other = parseDsRecord(dsPresentation(generateZoneKey('.')));
    const result = await check('signed.test', [other]);
    expect(result.status).toBe('unknown');
    expect(result.details.findings[0]).toMatchObject({ code: 'DNSSEC_TRUST_ANCHOR_FAILED', severity: 'warning' });
    expect(result.message).toContain('matches the trust anchor');
  });

  it('is unknown behind a resolver that strips the signatures', async () => {
    const stripped = Object.fromEntries(Object.entries(signedRecords).map(([name, value]) => [name, { ...value, RRSIG: undefined }]));
    const plain = await startDnsServer({ records: stripped, ttl: TTL });
    try {
      const result = await dnssecCheckWith([anchor])({ domain: 'signed.test', resolver: createResolver({ servers: [{ host: plain.host, port: plain.port }], timeoutMs: 400 }), config, dkimSelectors: [] });
      expect(result.status).toBe('unknown');
      expect(result.message).toContain('does not pass DNSSEC data on');
    } finally {
      await plain.close();
    }
  });

  it('notes a record of a signed domain answered through a CNAME from an unsigned zone', async () => {
    const result = await check('cname.test');
    expect(result.status).toBe('valid');
    expect(result.details.findings).toEqual([expect.objectContaining({ code: 'DNSSEC_RECORD_INSECURE', severity: 'info' })]);
    expect(result.details.signedRecords?.filter((record) => record.name === '_dmarc.cname.test' || record.name === '_dmarc.unsigned.test').map((record) => `${record.name} ${record.type} ${record.state}`)).toEqual([
      '_dmarc.cname.test CNAME secure',
      '_dmarc.unsigned.test TXT insecure',
    ]);
  });

  it('is unknown when the DNS lookups time out', async () => {
    const result = await check('slow.test');
    expect(result).toMatchObject({ status: 'unknown', value: null });
    expect(result.details.state).toBe('indeterminate');
    expect(result.message).toContain('timed out');
  });

  it('is unknown for a domain that does not exist', async () => {
    const result = await check('nowhere.test');
    expect(result.status).toBe('unknown');
    expect(codes(result)).toEqual(['DNSSEC_DOMAIN_NOT_FOUND']);
  });

  it('shares the root and TLD answers between scans, not the domain’s', async () => {
    const cache = new SharedAnswerCache();
    await check('signed.test', [anchor], cache);
    dns.resetLog();
    const second = await check('signed.test', [anchor], cache);
    expect(second.status).toBe('valid');
    const asked = dns.queryLog.map((entry) => `${entry.type} ${entry.name}`);
    expect(asked).not.toContain('DNSKEY ');
    expect(asked).not.toContain('DNSKEY test');
    expect(asked).not.toContain('DS test');
    expect(asked).toContain('DS signed.test');
    expect(asked).toContain('DNSKEY signed.test');
  });
});

/** CPU milliseconds (user and system) `run` takes; the event loop is blocked for no longer than that. */
async function cpuMs<T>(run: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const start = process.cpuUsage();
  const value = await run();
  const used = process.cpuUsage(start);
  return { value, ms: (used.user + used.system) / 1000 };
}

describe('DNSSEC validation within bounds (KeyTrap, CVE-2023-50387)', () => {
  it('refuses keys with huge RSA exponents and stops after a few signatures: unknown, never bogus, in bounded CPU', async () => {
    // Unbounded, this zone costs 21 keys × 41 signatures, ~700 verifications of ~8 ms: several seconds of blocked event loop.
    const { value: result, ms } = await cpuMs(() => check('keytrap.test'));
    expect(result).toMatchObject({ status: 'unknown', value: null });
    expect(result.details.state).toBe('secure');
    expect(result.details.findings[0]).toMatchObject({ code: 'DNSSEC_VALIDATION_LIMIT', severity: 'warning' });
    expect(result.message).toContain(`keytrap.test MX carries more than ${DNSSEC_LIMITS.signaturesPerRrset} RRSIGs`);
    expect(result.details.signedRecords?.find((record) => record.type === 'MX')).toMatchObject({ state: 'indeterminate', validated: false });
    // The rest of the zone is judged as usual.
    expect(result.details.signedRecords?.find((record) => record.type === 'SOA')).toMatchObject({ state: 'secure' });
    expect(ms).toBeLessThan(1_500);
  });

  it('names the refused key when every key of the tag is refused', async () => {
    const huge = keyTrapKey('keytrap.test', { keyTag: 4242 });
    const modest = keyTrapKey('keytrap.test', { keyTag: 4243, exponentBits: 17 });
    const { keyRefusal } = await import('../../src/checks/shared/dnssec/crypto.js');
    expect(keyRefusal(8, huge.dnskey.key as Buffer)).toBe('an RSA key with a 3071-bit public exponent (at most 32 bits are validated)');
    expect(keyRefusal(8, modest.dnskey.key as Buffer)).toBeNull();
    expect(keyRefusal(8, keyTrapKey('keytrap.test', { keyTag: 1, exponentBits: 17, modulusBits: 8192 }).dnskey.key as Buffer)).toBe('an RSA key of 8192 bits (at most 4096 are validated)');
  });

  it(`tries at most ${DNSSEC_LIMITS.keysPerSignature} keys of one tag for a signature`, async () => {
    const validator = new DnssecValidator({ resolver: resolver(), domain: 'keytags.test', trustAnchors: [anchor], now: Date.now() });
    const zone = await validator.zoneFor('keytags.test');
    expect(zone.state).toBe('secure');
    const before = validator.budget.spent;
    const mx = await validator.validateAnswer('keytags.test', 'MX');
    expect(Array.isArray(mx) && mx[0]).toMatchObject({ state: 'indeterminate', problem: { code: 'DNSSEC_VALIDATION_LIMIT' } });
    expect(Array.isArray(mx) && mx[0]?.problem?.detail).toContain('keytags.test publishes 13 keys with key tag');
    expect(validator.budget.spent - before).toBe(DNSSEC_LIMITS.keysPerSignature);

    const result = await check('keytags.test');
    expect(result.status).toBe('unknown');
    expect(result.recommendation).toContain('one key per key tag');
  });

  it('stops a scan at its bound of verifications, with the walk indeterminate rather than bogus', async () => {
    const validator = new DnssecValidator({ resolver: resolver(), domain: 'signed.test', trustAnchors: [anchor], now: Date.now(), budget: new VerificationBudget(3) });
    const zone = await validator.zoneFor('signed.test');
    expect(zone).toMatchObject({ state: 'indeterminate', zone: 'signed.test', problem: { code: 'DNSSEC_VALIDATION_LIMIT' } });
    expect(zone.state !== 'secure' && zone.problem.detail).toContain('bound of 150 DNSSEC signature verifications');
    expect(validator.budget.spent).toBe(3);
    expect(validator.chain.get('signed.test')?.state).toBe('indeterminate');
  });

  it('makes far fewer verifications than the bound for an ordinary signed domain', async () => {
    const validator = new DnssecValidator({ resolver: resolver(), domain: 'signed.test', trustAnchors: [anchor], now: Date.now() });
    await validator.zoneFor('signed.test');
    for (const [name, type] of [['signed.test', 'SOA'], ['signed.test', 'MX'], ['signed.test', 'TXT'], ['_dmarc.signed.test', 'TXT'], ['_25._tcp.mx.signed.test', 'TLSA']] as const) {
      await validator.validateAnswer(name, type);
    }
    expect(validator.budget.spent).toBeLessThanOrEqual(12);
  });
});
