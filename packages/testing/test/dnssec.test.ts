import { createHash, createPublicKey, verify } from 'node:crypto';
import dgram from 'node:dgram';
import dnsPacket from 'dns-packet';
import type { DecodedPacket } from 'dns-packet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canonicalName, dsPresentation, dsRecord, generateZoneKey, KSK_FLAGS, signFixtureZones, startDnsServer, ZONE_KEY_FLAGS, type TestDnsServer, type ZoneSigningKey } from '../src/index.js';

/** The DNSSEC signing helper and the fixture DNS server's answers to DO queries. */

let dns: TestDnsServer;
let ksk: ZoneSigningKey;
let zsk: ZoneSigningKey;

beforeAll(async () => {
  ksk = generateZoneKey('example.test');
  zsk = generateZoneKey('example.test', { flags: ZONE_KEY_FLAGS });
  const records = signFixtureZones(
    {
      'example.test': { SOA: { mname: 'ns.example.test', rname: 'hostmaster.example.test', serial: 1 }, A: ['192.0.2.1'] },
      'plain.example.test': { SOA: { mname: 'ns.plain.example.test', rname: 'hostmaster.plain.example.test', serial: 1 } },
    },
    [{ name: 'example.test', keys: [ksk, zsk] }, { name: 'plain.example.test' }],
  );
  dns = await startDnsServer({ records });
});

afterAll(async () => {
  await dns.close();
});

async function ask(name: string, type: 'A' | 'DNSKEY' | 'DS' | 'TXT', dnssecOk: boolean): Promise<DecodedPacket> {
  const socket = dgram.createSocket('udp4');
  try {
    const query = dnsPacket.encode({
      type: 'query',
      id: 7,
      flags: dnsPacket.RECURSION_DESIRED | (dnssecOk ? dnsPacket.CHECKING_DISABLED : 0),
      questions: [{ name, type, class: 'IN' }],
      additionals: [{ type: 'OPT', name: '.', udpPayloadSize: 1232, extendedRcode: 0, ednsVersion: 0, flags: dnssecOk ? dnsPacket.DNSSEC_OK : 0, flag_do: dnssecOk, options: [] }],
    });
    const answer = new Promise<Buffer>((resolve) => socket.once('message', resolve));
    socket.send(query, dns.port, dns.host);
    return dnsPacket.decode(await answer);
  } finally {
    setTimeout(() => socket.close(), 10);
  }
}

describe('DNSSEC fixtures', () => {
  it('derives key tags and DS records (RFC 4034 §5.1.4, App. B)', () => {
    expect(ksk.flags).toBe(KSK_FLAGS);
    const ds = dsRecord(ksk);
    const rdata = Buffer.concat([Buffer.from([1, 1, 3, 13]), ksk.dnskey.key]);
    expect(ds.digest).toEqual(createHash('sha256').update(canonicalName('example.test')).update(rdata).digest());
    expect(dsPresentation(ksk)).toMatch(new RegExp(`^example\\.test\\. IN DS ${ksk.keyTag} 13 2 [0-9A-F]{64}$`));
  });

  it('serves RRSIGs only to queries with DNSSEC OK, the DNSKEY RRset signed by the KSK, the rest by the ZSK', async () => {
    const plain = await ask('example.test', 'A', false);
    expect(plain.answers?.map((answer) => answer.type)).toEqual(['A']);
    const signed = await ask('example.test', 'A', true);
    expect(signed.flag_cd).toBe(true);
    const sigs = signed.answers?.filter((answer) => answer.type === 'RRSIG') ?? [];
    expect(sigs.map((sig) => sig.type === 'RRSIG' && sig.data.keyTag)).toEqual([zsk.keyTag]);
    const keys = await ask('example.test', 'DNSKEY', true);
    expect(keys.answers?.filter((answer) => answer.type === 'DNSKEY')).toHaveLength(2);
    expect(keys.answers?.flatMap((answer) => (answer.type === 'RRSIG' ? [answer.data.keyTag] : []))).toEqual([ksk.keyTag]);
  });

  it('signs over the canonical RRset: a P-256 signature over the RRSIG prefix and the A record verifies', async () => {
    const response = await ask('example.test', 'A', true);
    const sig = response.answers?.find((answer) => answer.type === 'RRSIG');
    if (sig?.type !== 'RRSIG') throw new Error('no RRSIG');
    const prefix = Buffer.alloc(18);
    prefix.writeUInt16BE(1, 0);
    prefix.writeUInt8(13, 2);
    prefix.writeUInt8(2, 3);
    prefix.writeUInt32BE(sig.data.originalTTL, 4);
    prefix.writeUInt32BE(sig.data.expiration, 8);
    prefix.writeUInt32BE(sig.data.inception, 12);
    prefix.writeUInt16BE(sig.data.keyTag, 16);
    const record = Buffer.concat([canonicalName('example.test'), Buffer.from([0, 1, 0, 1]), Buffer.alloc(4), Buffer.from([0, 4, 192, 0, 2, 1])]);
    record.writeUInt32BE(sig.data.originalTTL, canonicalName('example.test').length + 4);
    const data = Buffer.concat([prefix, canonicalName('example.test'), record]);
    const key = createPublicKey({ key: { kty: 'EC', crv: 'P-256', x: zsk.dnskey.key.subarray(0, 32).toString('base64url'), y: zsk.dnskey.key.subarray(32).toString('base64url') }, format: 'jwk' });
    expect(verify('sha256', data, { key, dsaEncoding: 'ieee-p1363' }, sig.data.signature)).toBe(true);
  });

  it("answers a negative DO query with the zone's signed SOA, the parent's for a DS question", async () => {
    const nodata = await ask('example.test', 'TXT', true);
    expect(nodata.authorities?.map((record) => `${record.name} ${record.type}`)).toEqual(['example.test SOA', 'example.test RRSIG']);
    const noDs = await ask('plain.example.test', 'DS', true);
    expect(noDs.answers).toEqual([]);
    expect(noDs.authorities?.map((record) => `${record.name} ${record.type}`)).toEqual(['example.test SOA', 'example.test RRSIG']);
    const withoutDo = await ask('example.test', 'TXT', false);
    expect(withoutDo.authorities).toEqual([]);
  });
});
