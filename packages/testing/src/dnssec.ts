import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import dnsPacket from 'dns-packet';
import type { Answer } from 'dns-packet';
import { fixtureRecords, type DnsFixtureDnskey, type DnsFixtureDs, type DnsFixtureRecords, type DnsFixtureRrsig, type DnsFixtureType } from './dns-server.js';

export type { DnsFixtureDnskey, DnsFixtureDs, DnsFixtureRrsig } from './dns-server.js';

/**
 * DNSSEC signing for fixture zones (RFC 4033–4035), so tests can serve signed zones from the fixture
 * DNS server: zone keys of the common algorithms (RFC 8624 §3.1), their DS records (RFC 4034 §5,
 * RFC 4509), and RRSIGs over every RRset of a zone, computed over the canonical form of RFC 4034 §6.
 *
 *   const root = generateZoneKey('.');
 *   const tld = generateZoneKey('test', { algorithm: 8 });
 *   const records = signFixtureZones(zoneRecords, [{ name: '.', keys: [root] }, { name: 'test', keys: [tld] }, { name: 'plain.test' }]);
 *   const anchor = dsRecord(root); // the trust anchor
 */

/** Algorithm numbers (IANA "DNS Security Algorithm Numbers"). */
export const DNSSEC_ALGORITHMS = {
  RSASHA1: 5,
  RSASHA1_NSEC3_SHA1: 7,
  RSASHA256: 8,
  RSASHA512: 10,
  ECDSAP256SHA256: 13,
  ECDSAP384SHA384: 14,
  ED25519: 15,
  ED448: 16,
} as const;

/** Flags of a zone key (256) and of one with the Secure Entry Point bit, a KSK (257) (RFC 4034 §2.1.1). */
export const ZONE_KEY_FLAGS = 256;
export const KSK_FLAGS = 257;

export interface ZoneKeyOptions {
  /** Any number; one this module cannot sign with (e.g. 253, PRIVATEDNS) gets random key bytes and random signatures. Default 13. */
  algorithm?: number;
  /** Default 257 (a KSK); 256 for a ZSK. */
  flags?: number;
  /** RSA modulus length; default 2048. */
  rsaBits?: number;
}

export interface ZoneSigningKey {
  /** The zone, lower-case without the trailing dot; '' for the root. */
  zone: string;
  algorithm: number;
  flags: number;
  keyTag: number;
  dnskey: DnsFixtureDnskey;
  /** The private key; null for an algorithm this module does not implement (signatures are random bytes). */
  privateKey: KeyObject | null;
}

/** Lower-case without the trailing dot; '' for the root. */
function zoneName(name: string): string {
  const lower = name.toLowerCase();
  if (lower === '.' || lower === '') return '';
  return lower.endsWith('.') ? lower.slice(0, -1) : lower;
}

const b64url = (value: unknown): Buffer => Buffer.from(String(value), 'base64url');

/** The public key field of a DNSKEY: RFC 3110 §2 (RSA), RFC 6605 §4 (ECDSA), RFC 8080 §3 (EdDSA). */
function dnskeyPublicKey(publicKey: KeyObject, algorithm: number): Buffer {
  const jwk = publicKey.export({ format: 'jwk' });
  if (jwk.kty === 'RSA') {
    const exponent = b64url(jwk.e);
    const modulus = b64url(jwk.n);
    const length = exponent.length <= 255 ? Buffer.from([exponent.length]) : Buffer.from([0, exponent.length >> 8, exponent.length & 0xff]);
    return Buffer.concat([length, exponent, modulus]);
  }
  if (jwk.kty === 'EC') return Buffer.concat([b64url(jwk.x), b64url(jwk.y)]);
  if (jwk.kty === 'OKP') return b64url(jwk.x);
  throw new Error(`no DNSKEY encoding for algorithm ${algorithm}`);
}

function generatePair(algorithm: number, rsaBits: number): { publicKey: KeyObject; privateKey: KeyObject } | null {
  switch (algorithm) {
    case 5:
    case 7:
    case 8:
    case 10:
      return generateKeyPairSync('rsa', { modulusLength: rsaBits });
    case 13:
      return generateKeyPairSync('ec', { namedCurve: 'P-256' });
    case 14:
      return generateKeyPairSync('ec', { namedCurve: 'P-384' });
    case 15:
      return generateKeyPairSync('ed25519');
    case 16:
      return generateKeyPairSync('ed448');
    default:
      return null;
  }
}

/** RFC 4034 Appendix B: the key tag of a DNSKEY's rdata. */
export function keyTag(dnskeyRdata: Buffer): number {
  let accumulator = 0;
  for (let i = 0; i < dnskeyRdata.length; i++) accumulator += i & 1 ? (dnskeyRdata[i] as number) : (dnskeyRdata[i] as number) << 8;
  accumulator += (accumulator >> 16) & 0xffff;
  return accumulator & 0xffff;
}

/** A zone key with its DNSKEY record and key tag. */
export function generateZoneKey(zone: string, options: ZoneKeyOptions = {}): ZoneSigningKey {
  const algorithm = options.algorithm ?? DNSSEC_ALGORITHMS.ECDSAP256SHA256;
  const flags = options.flags ?? KSK_FLAGS;
  const pair = generatePair(algorithm, options.rsaBits ?? 2048);
  const key = pair ? dnskeyPublicKey(pair.publicKey, algorithm) : randomBytes(64);
  const dnskey: DnsFixtureDnskey = { flags, algorithm, key };
  return { zone: zoneName(zone), algorithm, flags, keyTag: keyTag(dnskeyRdata(dnskey)), dnskey, privateKey: pair?.privateKey ?? null };
}

/** The canonical wire form of a name (RFC 4034 §6.2): lower-case labels, uncompressed. */
export function canonicalName(name: string): Buffer {
  const zone = zoneName(name);
  if (zone === '') return Buffer.from([0]);
  const parts: Buffer[] = [];
  for (const label of zone.split('.')) {
    const bytes = Buffer.from(label, 'utf8');
    parts.push(Buffer.from([bytes.length]), bytes);
  }
  parts.push(Buffer.from([0]));
  return Buffer.concat(parts);
}

/** Message header (12) + root owner (1) + type, class, TTL, rdlength (10). */
const RDATA_OFFSET = 23;

/** The rdata of a dns-packet answer, names in it lower-cased for the types RFC 4034 §6.2 lists (those fixtures have). */
function rdataOf(answer: Answer): Buffer {
  let record = answer;
  switch (answer.type) {
    case 'NS':
    case 'CNAME':
    case 'PTR':
      record = { ...answer, data: answer.data.toLowerCase() };
      break;
    case 'MX':
      record = { ...answer, data: { ...answer.data, exchange: answer.data.exchange.toLowerCase() } };
      break;
    case 'SOA':
      record = { ...answer, data: { ...answer.data, mname: answer.data.mname.toLowerCase(), rname: answer.data.rname.toLowerCase() } };
      break;
    default:
      break;
  }
  const message = dnsPacket.encode({ type: 'response', id: 0, flags: 0, answers: [{ ...record, name: '.', ttl: 0, class: 'IN' } as Answer] });
  return Buffer.from(message.subarray(RDATA_OFFSET));
}

function dnskeyRdata(dnskey: DnsFixtureDnskey): Buffer {
  return rdataOf({ name: '.', type: 'DNSKEY', data: { flags: dnskey.flags, algorithm: dnskey.algorithm, key: dnskey.key } });
}

/** Digest types: 1 SHA-1 (RFC 4034 §5.1.4), 2 SHA-256 (RFC 4509), 4 SHA-384 (RFC 6605). */
const DIGESTS: Record<number, string> = { 1: 'sha1', 2: 'sha256', 4: 'sha384' };

/** The DS record of a key (RFC 4034 §5.1.4): digest over the owner name and the DNSKEY rdata. */
export function dsRecord(key: ZoneSigningKey, digestType = 2): DnsFixtureDs {
  const hash = DIGESTS[digestType];
  if (!hash) throw new Error(`no digest type ${digestType}`);
  const digest = createHash(hash).update(canonicalName(key.zone)).update(dnskeyRdata(key.dnskey)).digest();
  return { keyTag: key.keyTag, algorithm: key.algorithm, digestType, digest };
}

/** The DS in presentation format, e.g. `. IN DS 20326 8 2 E06D…` (a trust anchor's configuration form). */
export function dsPresentation(key: ZoneSigningKey, digestType = 2): string {
  const ds = dsRecord(key, digestType);
  const digest = typeof ds.digest === 'string' ? ds.digest : ds.digest.toString('hex');
  return `${key.zone === '' ? '.' : `${key.zone}.`} IN DS ${ds.keyTag} ${ds.algorithm} ${ds.digestType} ${digest.toUpperCase()}`;
}

const HASHES: Record<number, string | null> = { 5: 'sha1', 7: 'sha1', 8: 'sha256', 10: 'sha512', 13: 'sha256', 14: 'sha384', 15: null, 16: null };

function signBytes(key: ZoneSigningKey, data: Buffer): Buffer {
  if (!key.privateKey) return randomBytes(64);
  const hash = HASHES[key.algorithm] ?? null;
  if (key.algorithm === 13 || key.algorithm === 14) return sign(hash, data, { key: key.privateKey, dsaEncoding: 'ieee-p1363' });
  return sign(hash, data, key.privateKey);
}

/** Seconds since 1970 modulo 2^32, as RRSIG times are (RFC 4034 §3.1.5). */
export function rrsigTime(date: Date): number {
  return Math.floor(date.getTime() / 1000) % 2 ** 32;
}

const TYPE_CODES: Record<string, number> = { A: 1, NS: 2, CNAME: 5, SOA: 6, PTR: 12, MX: 15, TXT: 16, AAAA: 28, DS: 43, RRSIG: 46, DNSKEY: 48, TLSA: 52 };

export interface SignOptions {
  /** Default: an hour ago. */
  inception?: Date;
  /** Default: 30 days from now. */
  expiration?: Date;
  /** The TTL the server answers with (its `ttl` option); default 300. */
  ttl?: number;
}

/**
 * The RRSIG of one RRset (RFC 4034 §3.1.8.1): the RRSIG rdata without its signature, then each record
 * in canonical form and order (owner lower-case, class IN, the original TTL). A wildcard owner
 * (`*.zone`) is signed as such, with the labels field counting the labels after the `*`.
 */
export function signRrset(owner: string, type: DnsFixtureType, records: DnsFixtureRecords, key: ZoneSigningKey, options: SignOptions = {}): DnsFixtureRrsig {
  const ttl = options.ttl ?? 300;
  const name = zoneName(owner);
  const labels = name === '' ? 0 : name.split('.').filter((label) => label !== '*').length;
  const typeCode = TYPE_CODES[type];
  if (typeCode === undefined) throw new Error(`cannot sign type ${type}`);
  const rrsig: DnsFixtureRrsig = {
    typeCovered: type,
    algorithm: key.algorithm,
    labels,
    originalTTL: ttl,
    expiration: rrsigTime(options.expiration ?? new Date(Date.now() + 30 * 86_400_000)),
    inception: rrsigTime(options.inception ?? new Date(Date.now() - 3_600_000)),
    keyTag: key.keyTag,
    signersName: key.zone === '' ? '.' : key.zone,
    signature: Buffer.alloc(0),
  };
  const prefix = rdataOf({ name: '.', type: 'RRSIG', data: rrsig });
  const ownerWire = canonicalName(name);
  const fixed = Buffer.alloc(8);
  fixed.writeUInt16BE(typeCode, 0);
  fixed.writeUInt16BE(1, 2); // class IN
  fixed.writeUInt32BE(ttl, 4);
  const rdatas = fixtureRecords(name === '' ? '.' : name, records, type, ttl).map(rdataOf);
  const unique = [...new Map(rdatas.map((rdata) => [rdata.toString('hex'), rdata])).values()].sort(Buffer.compare);
  const parts: Buffer[] = [prefix];
  for (const rdata of unique) {
    const length = Buffer.alloc(2);
    length.writeUInt16BE(rdata.length);
    parts.push(ownerWire, fixed, length, rdata);
  }
  return { ...rrsig, signature: signBytes(key, Buffer.concat(parts)) };
}

export interface FixtureZone {
  /** The apex ('.' for the root); its records (SOA, NS …) are in the records given. */
  name: string;
  /** Its keys; none for an unsigned zone (no DNSKEY, no DS at the parent, no RRSIG). */
  keys?: ZoneSigningKey[];
  /** The digest types of the DS records published for it at the parent; default [2]; [] for none. */
  dsDigestTypes?: number[];
  /** Validity of this zone's signatures, overriding signFixtureZones' options. */
  inception?: Date;
  expiration?: Date;
}

const SIGNABLE: DnsFixtureType[] = ['A', 'AAAA', 'MX', 'TXT', 'NS', 'CNAME', 'PTR', 'SOA', 'TLSA', 'DNSKEY', 'DS'];

/**
 * The records with the zones signed: each zone's apex gets its DNSKEY RRset (its keys), its parent
 * the DS records of its KSKs (unless the records already hold DNSKEY or DS there, for tests that
 * publish wrong ones), and every RRset an RRSIG from each key of the zone it belongs to: the DNSKEY
 * RRset from the KSKs (flags 257), the others from the ZSKs (256), or from every key when the zone has
 * keys of one kind only. A name belongs to the closest zone at or above it; its DS to the one above.
 * Existing RRSIG entries are kept. The input is not changed.
 */
export function signFixtureZones(
  records: Record<string, DnsFixtureRecords>,
  zones: FixtureZone[],
  options: SignOptions = {},
): Record<string, DnsFixtureRecords> {
  const out = new Map<string, DnsFixtureRecords>();
  for (const [name, value] of Object.entries(records)) {
    const owner = zoneName(name);
    out.set(owner, { ...out.get(owner), ...value });
  }
  const byName = new Map(zones.map((zone) => [zoneName(zone.name), zone]));

  for (const [apex, zone] of byName) {
    const keys = zone.keys ?? [];
    if (keys.length === 0) continue;
    const own = out.get(apex) ?? {};
    const dsTypes = zone.dsDigestTypes ?? [2];
    const ksks = keys.filter((key) => key.flags === KSK_FLAGS);
    const next: DnsFixtureRecords = { ...own };
    next.DNSKEY ??= keys.map((key) => key.dnskey);
    if (apex !== '' && dsTypes.length > 0) next.DS ??= (ksks.length > 0 ? ksks : keys).flatMap((key) => dsTypes.map((type) => dsRecord(key, type)));
    out.set(apex, next);
  }

  const zoneOf = (owner: string, type: DnsFixtureType): FixtureZone | undefined => {
    let name: string | null = type === 'DS' ? parentName(owner) : owner;
    while (name !== null) {
      const zone = byName.get(name);
      if (zone) return zone;
      name = parentName(name);
    }
    return undefined;
  };

  for (const [owner, value] of out) {
    const signatures: DnsFixtureRrsig[] = [...(value.RRSIG ?? [])];
    for (const type of SIGNABLE) {
      if (value[type] === undefined || (Array.isArray(value[type]) && value[type].length === 0)) continue;
      const zone = zoneOf(owner, type);
      const keys = zone?.keys ?? [];
      if (!zone || keys.length === 0) continue;
      const ksks = keys.filter((key) => key.flags === KSK_FLAGS);
      const zsks = keys.filter((key) => key.flags !== KSK_FLAGS);
      const signers = type === 'DNSKEY' ? (ksks.length > 0 ? ksks : keys) : zsks.length > 0 ? zsks : keys;
      const validity: SignOptions = {
        ttl: options.ttl,
        inception: zone.inception ?? options.inception,
        expiration: zone.expiration ?? options.expiration,
      };
      for (const key of signers) signatures.push(signRrset(owner, type, value, key, validity));
    }
    if (signatures.length > 0) out.set(owner, { ...value, RRSIG: signatures });
  }
  return Object.fromEntries([...out].map(([name, value]) => [name === '' ? '.' : name, value]));
}

function parentName(name: string): string | null {
  if (name === '') return null;
  const dot = name.indexOf('.');
  return dot < 0 ? '' : name.slice(dot + 1);
}

export interface KeyTrapKeyOptions {
  /** The key tag to collide with (a real key's). */
  keyTag: number;
  /** An RSA algorithm number; default 8 (RSA/SHA-256). */
  algorithm?: number;
  /** Default 256 (a ZSK). */
  flags?: number;
  /** Default 3072: the largest modulus for which OpenSSL accepts any exponent. */
  modulusBits?: number;
  /** Default 3071 bits, which makes one verification cost ~8 ms; 17 gives an ordinary-cost key (e = 65537's size). */
  exponentBits?: number;
}

/**
 * A KeyTrap DNSKEY (CVE-2023-50387): a random RSA "public key" that no private key belongs to, with the
 * key tag of a real key of the zone, so a validator that tries every key of a tag against every
 * signature verifies with it, and, with a large public exponent, pays ~8 ms each time. Its 16-bit
 * word before the last byte is chosen to land on the tag (the tag is a 16-bit checksum, RFC 4034
 * Appendix B); the modulus stays odd and of full length, so OpenSSL does the whole modular exponentiation.
 */
export function keyTrapKey(zone: string, options: KeyTrapKeyOptions): ZoneSigningKey {
  const algorithm = options.algorithm ?? DNSSEC_ALGORITHMS.RSASHA256;
  const flags = options.flags ?? ZONE_KEY_FLAGS;
  const exponentBits = options.exponentBits ?? 3071;
  const exponent = randomBytes(Math.ceil(exponentBits / 8));
  const topBits = exponentBits - 8 * (exponent.length - 1);
  exponent[0] = ((exponent[0] as number) & ((1 << topBits) - 1)) | (1 << (topBits - 1));
  exponent[exponent.length - 1] = (exponent[exponent.length - 1] as number) | 1;
  const modulus = randomBytes((options.modulusBits ?? 3072) / 8);
  modulus[0] = (modulus[0] as number) | 0x80;
  modulus[modulus.length - 1] = (modulus[modulus.length - 1] as number) | 1;
  const length = exponent.length <= 255 ? Buffer.from([exponent.length]) : Buffer.from([0, exponent.length >> 8, exponent.length & 0xff]);
  const key = Buffer.concat([length, exponent, modulus]);
  const rdata = dnskeyRdata({ flags, algorithm, key });
  // The even-offset word of the rdata that holds the modulus' second-to-last byte (the last stays odd).
  const at = rdata.length % 2 === 0 ? rdata.length - 4 : rdata.length - 3;
  rdata.writeUInt16BE(0, at);
  let base = 0;
  for (let i = 0; i < rdata.length; i++) base += i & 1 ? (rdata[i] as number) : (rdata[i] as number) << 8;
  for (let word = 0; word <= 0xffff; word++) {
    const sum = base + word;
    if (((sum + ((sum >> 16) & 0xffff)) & 0xffff) === options.keyTag) {
      rdata.writeUInt16BE(word, at);
      break;
    }
  }
  const dnskey: DnsFixtureDnskey = { flags, algorithm, key: rdata.subarray(4) };
  const tag = keyTag(dnskeyRdata(dnskey));
  if (tag !== options.keyTag) throw new Error(`could not make a key with tag ${options.keyTag}`);
  return { zone: zoneName(zone), algorithm, flags, keyTag: tag, dnskey, privateKey: null };
}

/**
 * `count` RRSIGs over an RRset that name `key` (its tag, algorithm and zone) and carry random
 * signatures of `signatureBytes` (the trap keys' modulus length, which OpenSSL requires before it
 * computes), each a verification a naive validator makes against every key of that tag.
 */
export function keyTrapSignatures(owner: string, type: DnsFixtureType, records: DnsFixtureRecords, key: ZoneSigningKey, count: number, signatureBytes = 384): DnsFixtureRrsig[] {
  const template = signRrset(owner, type, records, { ...key, privateKey: null });
  return Array.from({ length: count }, () => {
    const signature = randomBytes(signatureBytes);
    signature[0] = 0x01; // below any full-length modulus
    return { ...template, signature };
  });
}
