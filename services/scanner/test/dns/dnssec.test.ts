import { dsRecord, generateZoneKey, signFixtureZones, startDnsServer, type DnsFixtureRecords, type TestDnsServer, type ZoneSigningKey } from '@sendwell/testing';
import dnsPacket from 'dns-packet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDnsTransport, encodeQuery, type DnsTransport } from '../../src/dns/dns-transport.js';
import { createResolver } from '../../src/dns/resolver.js';
import { SharedAnswerCache } from '../../src/dns/shared-cache.js';

/** DNSSEC questions through the resolver (queryDnssec), and the DNSKEY, DS and RRSIG types, from the fixture DNS server. */

let dns: TestDnsServer;
let transport: DnsTransport;
let key: ZoneSigningKey;

beforeAll(async () => {
  transport = createDnsTransport();
  key = generateZoneKey('example.test');
  const records: Record<string, DnsFixtureRecords> = {
    '.': { SOA: { mname: 'a.root.test', rname: 'nstld.root.test', serial: 1 } },
    'example.test': {
      SOA: { mname: 'NS.Example.TEST', rname: 'hostmaster.example.test', serial: 1 },
      // Upper case in the rdata: the canonical form lower-cases it (RFC 4034 §6.2).
      MX: [
        { priority: 20, exchange: 'MX2.Example.Test' },
        { priority: 10, exchange: 'mx1.example.test' },
      ],
    },
    'alias.example.test': { CNAME: 'example.test' },
    // An unsigned delegation: no DS at example.test.
    'plain.example.test': { SOA: { mname: 'ns.plain.example.test', rname: 'hostmaster.plain.example.test', serial: 1 } },
  };
  const signed = signFixtureZones(records, [{ name: '.', keys: [generateZoneKey('.')] }, { name: 'example.test', keys: [key] }, { name: 'plain.example.test' }]);
  dns = await startDnsServer({ records: signed });
});

afterAll(async () => {
  await transport.close();
  await dns.close();
});

const resolver = (sharedCache?: SharedAnswerCache) =>
  createResolver({ servers: [{ host: dns.host, port: dns.port }], timeoutMs: 500, transport, ...(sharedCache ? { sharedCache } : {}) });

describe('DNSSEC questions', () => {
  it('sets CD in the header and DO in the OPT record only for DNSSEC questions', () => {
    const plain = dnsPacket.decode(encodeQuery(1, { name: 'example.test', type: 'MX' }, true));
    const dnssec = dnsPacket.decode(encodeQuery(1, { name: 'example.test', type: 'MX', dnssec: true }, true));
    expect(plain.flag_cd).toBe(false);
    expect(plain.additionals?.[0]).toMatchObject({ type: 'OPT', flag_do: false });
    expect(dnssec.flag_cd).toBe(true);
    expect(dnssec.flag_rd).toBe(true);
    expect(dnssec.additionals?.[0]).toMatchObject({ type: 'OPT', flag_do: true, udpPayloadSize: 1232 });
  });

  it('returns the records with canonical rdata and the RRSIGs covering them', async () => {
    const response = await resolver().queryDnssec('Example.Test.', 'MX');
    expect(response.rcode).toBe('NOERROR');
    expect(response.answers.map((record) => [record.name, record.type, record.typeCode, record.ttl])).toEqual([
      ['example.test', 'MX', 15, 300],
      ['example.test', 'MX', 15, 300],
    ]);
    // Preference 20, then mx2.example.test in lower-case labels.
    expect(response.answers[0]?.rdata).toEqual(Buffer.from('0014036d7832076578616d706c65047465737400', 'hex'));
    expect(response.rrsigs).toHaveLength(1);
    expect(response.rrsigs[0]).toMatchObject({ name: 'example.test', section: 'answer', typeCovered: 'MX', algorithm: 13, labels: 2, keyTag: key.keyTag, signerName: 'example.test', originalTtl: 300 });
    // The RRSIG rdata up to the signature: 18 fixed bytes and the signer's name.
    expect(response.rrsigs[0]?.signedPrefix.length).toBe(18 + 'example.test'.length + 2);
    expect(dns.queryLog.at(-1)).toMatchObject({ name: 'example.test', type: 'MX', dnssecOk: true, checkingDisabled: true });
  });

  it('asks the root, and gives the SOA and its RRSIG of a negative answer in the authority section', async () => {
    const root = await resolver().queryDnssec('.', 'DNSKEY');
    expect(root.answers.map((record) => `${record.name || '.'} ${record.type}`)).toEqual(['. DNSKEY']);
    expect(root.rrsigs.map((sig) => sig.signerName)).toEqual(['']);
    // No DS for the unsigned child: the parent's SOA (RFC 4035 §3.1.4.1), not the child's.
    const nodata = await resolver().queryDnssec('plain.example.test', 'DS');
    expect(nodata.answers).toEqual([]);
    expect(nodata.authorities.map((record) => `${record.name} ${record.type}`)).toEqual(['example.test SOA']);
    expect(nodata.rrsigs.map((sig) => [sig.section, sig.name, sig.typeCovered])).toEqual([['authority', 'example.test', 'SOA']]);
    expect(nodata.negativeTtl).toBe(300);
    const ds = await resolver().queryDnssec('example.test', 'DS');
    expect(ds.rrsigs.map((sig) => [sig.section, sig.signerName])).toEqual([['answer', '']]);
  });

  it('keeps the CNAME of a chain and its signature', async () => {
    const response = await resolver().queryDnssec('alias.example.test', 'SOA');
    expect(response.answers.map((record) => `${record.name} ${record.type}`)).toEqual(['alias.example.test CNAME', 'example.test SOA']);
    expect(response.rrsigs.map((sig) => `${sig.name} ${sig.typeCovered}`).sort()).toEqual(['alias.example.test CNAME', 'example.test SOA']);
  });

  it('sends no RRSIGs to questions without DO, and parses DNSKEY, DS and RRSIG answers', async () => {
    const r = resolver();
    const mx = await r.query('example.test', 'MX');
    expect(mx.answers).toHaveLength(2);
    const keys = await r.lookup('example.test', 'DNSKEY');
    expect(keys).toEqual([{ flags: 257, protocol: 3, algorithm: 13, key: key.dnskey.key }]);
    const ds = await r.lookup('example.test', 'DS');
    const expected = dsRecord(key);
    expect(ds).toEqual([{ keyTag: key.keyTag, algorithm: 13, digestType: 2, digest: (expected.digest as Buffer).toString('hex') }]);
    const sigs = await r.lookup('example.test', 'RRSIG');
    expect(sigs.map((sig) => sig.typeCovered).sort()).toEqual(['DNSKEY', 'DS', 'MX', 'SOA']);
  });

  it('caches per scan apart from plain questions, and shares only what is asked as shared', async () => {
    const cache = new SharedAnswerCache();
    const first = resolver(cache);
    dns.resetLog();
    await first.queryDnssec('example.test', 'SOA');
    await first.queryDnssec('example.test', 'SOA');
    await first.query('example.test', 'SOA');
    expect(dns.queries).toBe(2);
    expect(first.queriesSent).toBe(2);
    await first.queryDnssec('', 'DNSKEY', { shared: true });
    const second = resolver(cache);
    await second.queryDnssec('.', 'DNSKEY', { shared: true });
    await second.queryDnssec('example.test', 'SOA');
    expect(second.queriesSent).toBe(1);
    expect(dns.queryLog.map((entry) => `${entry.type} ${entry.name}`)).toEqual(['SOA example.test', 'SOA example.test', 'DNSKEY ', 'SOA example.test']);
  });
});
