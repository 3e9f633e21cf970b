import { createHash, createPublicKey, verify, type JsonWebKey, type KeyObject } from 'node:crypto';
import { DNSSEC_LIMITS } from './budget.js';

/**
 * The cryptography of DNSSEC validation with node:crypto: key tags (RFC 4034 Appendix B), DS digests
 * (RFC 4034 §5.1.4, RFC 4509, RFC 6605 §2), DNSKEY public keys (RFC 3110 §2 RSA, RFC 6605 §4 ECDSA,
 * RFC 8080 §3 EdDSA) and signature checks.
 */

export interface AlgorithmInfo {
  /** The mnemonic of the IANA registry, e.g. "ECDSAP256SHA256". */
  name: string;
  /** How people call it, for messages. */
  label: string;
  /** node:crypto's digest name; null for EdDSA (the hash is part of the scheme). */
  hash: string | null;
  kind: 'rsa' | 'ecdsa' | 'eddsa';
  /** RFC 8624 §3.1: "MUST NOT" for signing: still validated, with a warning. */
  deprecated: boolean;
}

/** The algorithms validated (RFC 8624 §3.1 lists them as MUST or MAY for validation). */
export const ALGORITHMS: Readonly<Record<number, AlgorithmInfo>> = {
  5: { name: 'RSASHA1', label: 'RSA/SHA-1', hash: 'sha1', kind: 'rsa', deprecated: true },
  7: { name: 'RSASHA1-NSEC3-SHA1', label: 'RSA/SHA-1 (NSEC3)', hash: 'sha1', kind: 'rsa', deprecated: true },
  8: { name: 'RSASHA256', label: 'RSA/SHA-256', hash: 'sha256', kind: 'rsa', deprecated: false },
  10: { name: 'RSASHA512', label: 'RSA/SHA-512', hash: 'sha512', kind: 'rsa', deprecated: false },
  13: { name: 'ECDSAP256SHA256', label: 'ECDSA P-256/SHA-256', hash: 'sha256', kind: 'ecdsa', deprecated: false },
  14: { name: 'ECDSAP384SHA384', label: 'ECDSA P-384/SHA-384', hash: 'sha384', kind: 'ecdsa', deprecated: false },
  15: { name: 'ED25519', label: 'Ed25519', hash: null, kind: 'eddsa', deprecated: false },
  16: { name: 'ED448', label: 'Ed448', hash: null, kind: 'eddsa', deprecated: false },
};

/** Names of the algorithms not validated, for messages (RFC 8624 §3.1: RSAMD5, DSA and GOST are not to be validated, or need not be). */
const OTHER_ALGORITHMS: Readonly<Record<number, string>> = { 1: 'RSAMD5', 3: 'DSA', 6: 'DSA-NSEC3-SHA1', 12: 'ECC-GOST', 253: 'PRIVATEDNS', 254: 'PRIVATEOID' };

export function algorithmName(algorithm: number): string {
  return ALGORITHMS[algorithm]?.label ?? OTHER_ALGORITHMS[algorithm] ?? `algorithm ${algorithm}`;
}

export function algorithmSupported(algorithm: number): boolean {
  return ALGORITHMS[algorithm] !== undefined;
}

/** DS digest types: 1 SHA-1 (RFC 4034 §5.1.4), 2 SHA-256 (RFC 4509 §2.1), 4 SHA-384 (RFC 6605 §2). GOST (3) is not validated. */
export const DIGEST_TYPES: Readonly<Record<number, { hash: string; label: string }>> = {
  1: { hash: 'sha1', label: 'SHA-1' },
  2: { hash: 'sha256', label: 'SHA-256' },
  4: { hash: 'sha384', label: 'SHA-384' },
};

export function digestName(digestType: number): string {
  return DIGEST_TYPES[digestType]?.label ?? (digestType === 3 ? 'GOST R 34.11-94' : `digest type ${digestType}`);
}

/** RFC 4034 Appendix B: the key tag of a DNSKEY rdata (algorithm 1's special case left out: it is not validated). */
export function keyTag(dnskeyRdata: Buffer): number {
  let accumulator = 0;
  for (let i = 0; i < dnskeyRdata.length; i++) accumulator += i & 1 ? (dnskeyRdata[i] as number) : (dnskeyRdata[i] as number) << 8;
  accumulator += (accumulator >> 16) & 0xffff;
  return accumulator & 0xffff;
}

/** The DS digest of a DNSKEY (RFC 4034 §5.1.4): hash(owner name in canonical wire form | DNSKEY rdata); null for an unknown type. */
export function dsDigest(ownerWire: Buffer, dnskeyRdata: Buffer, digestType: number): Buffer | null {
  const digest = DIGEST_TYPES[digestType];
  if (!digest) return null;
  return createHash(digest.hash).update(ownerWire).update(dnskeyRdata).digest();
}

const ECDSA_CURVES: Readonly<Record<number, { crv: string; size: number }>> = { 13: { crv: 'P-256', size: 32 }, 14: { crv: 'P-384', size: 48 } };
const EDDSA_CURVES: Readonly<Record<number, { crv: string; size: number }>> = { 15: { crv: 'Ed25519', size: 32 }, 16: { crv: 'Ed448', size: 57 } };

/** RFC 3110 §2: a one-byte exponent length, or 0 and a two-byte one; then the exponent and the modulus (leading zeros stripped, at least 512 bits). */
function rsaParts(key: Buffer): { exponent: Buffer; modulus: Buffer } | null {
  if (key.length < 3) return null;
  let offset = 1;
  let exponentLength = key[0] as number;
  if (exponentLength === 0) {
    exponentLength = key.readUInt16BE(1);
    offset = 3;
  }
  const exponent = key.subarray(offset, offset + exponentLength);
  const modulus = key.subarray(offset + exponentLength);
  if (exponentLength === 0 || exponent.length !== exponentLength || modulus.length < 64) return null;
  return { exponent: stripZeros(exponent), modulus: stripZeros(modulus) };
}

function bitLength(bytes: Buffer): number {
  const top = bytes[0] ?? 0;
  return top === 0 ? 0 : (bytes.length - 1) * 8 + (32 - Math.clz32(top));
}

/**
 * Why a DNSKEY's public key is not used, though well-formed: an RSA key outside the bounds every
 * signer keeps (budget.ts), the KeyTrap attack's tool; null for a key that may be verified with.
 */
export function keyRefusal(algorithm: number, key: Buffer): string | null {
  if (ALGORITHMS[algorithm]?.kind !== 'rsa') return null;
  const parts = rsaParts(key);
  if (!parts) return null;
  const exponentBits = bitLength(parts.exponent);
  const modulusBits = bitLength(parts.modulus);
  const { rsaExponentBits, rsaModulusBits } = DNSSEC_LIMITS;
  if (exponentBits > rsaExponentBits) return `an RSA key with a ${exponentBits}-bit public exponent (at most ${rsaExponentBits} bits are validated)`;
  if (modulusBits > rsaModulusBits) return `an RSA key of ${modulusBits} bits (at most ${rsaModulusBits} are validated)`;
  return null;
}

/** The JWK of a DNSKEY's public key field; null when the field is malformed for its algorithm or refused (keyRefusal). */
function jwkOf(algorithm: number, key: Buffer): JsonWebKey | null {
  const info = ALGORITHMS[algorithm];
  if (!info) return null;
  if (info.kind === 'rsa') {
    const parts = rsaParts(key);
    if (!parts || keyRefusal(algorithm, key) !== null) return null;
    return { kty: 'RSA', n: parts.modulus.toString('base64url'), e: parts.exponent.toString('base64url') };
  }
  if (info.kind === 'ecdsa') {
    const curve = ECDSA_CURVES[algorithm] as { crv: string; size: number };
    if (key.length !== curve.size * 2) return null;
    return { kty: 'EC', crv: curve.crv, x: key.subarray(0, curve.size).toString('base64url'), y: key.subarray(curve.size).toString('base64url') };
  }
  const curve = EDDSA_CURVES[algorithm] as { crv: string; size: number };
  if (key.length !== curve.size) return null;
  return { kty: 'OKP', crv: curve.crv, x: key.toString('base64url') };
}

function stripZeros(bytes: Buffer): Buffer {
  let start = 0;
  while (start < bytes.length - 1 && bytes[start] === 0) start++;
  return bytes.subarray(start);
}

/** Imported keys by algorithm and key bytes: the root's and the TLDs' keys are the same in every scan. */
const keyCache = new Map<string, KeyObject | null>();
const KEY_CACHE_LIMIT = 2_000;

/** The public key of a DNSKEY; null when malformed or of an algorithm not validated. */
export function publicKeyOf(algorithm: number, key: Buffer): KeyObject | null {
  const cacheKey = `${algorithm}:${key.toString('base64')}`;
  if (keyCache.has(cacheKey)) return keyCache.get(cacheKey) ?? null;
  let imported: KeyObject | null = null;
  const jwk = jwkOf(algorithm, key);
  if (jwk) {
    try {
      imported = createPublicKey({ key: jwk, format: 'jwk' });
    } catch {
      imported = null;
    }
  }
  if (keyCache.size >= KEY_CACHE_LIMIT) keyCache.delete(keyCache.keys().next().value as string);
  keyCache.set(cacheKey, imported);
  return imported;
}

/**
 * Whether `signature` is the algorithm's signature of `data` by `key`: RSA PKCS #1 v1.5 (RFC 3110,
 * RFC 5702), ECDSA with r|s of fixed size (RFC 6605 §4), EdDSA (RFC 8080 §4). 'unsupported' when
 * node:crypto refuses the operation (e.g. SHA-1 signatures disabled by the system's OpenSSL policy).
 */
export function verifySignature(algorithm: number, key: KeyObject, data: Buffer, signature: Buffer): boolean | 'unsupported' {
  const info = ALGORITHMS[algorithm];
  if (!info) return 'unsupported';
  try {
    if (info.kind === 'ecdsa') {
      const size = (ECDSA_CURVES[algorithm] as { size: number }).size;
      if (signature.length !== size * 2) return false;
      return verify(info.hash, data, { key, dsaEncoding: 'ieee-p1363' }, signature);
    }
    return verify(info.hash, data, key, signature);
  } catch (error) {
    // A malformed signature makes OpenSSL fail rather than answer false: that is a bad signature.
    if (error instanceof Error && /unsupported|disabled|not supported|invalid digest/i.test(error.message)) return 'unsupported';
    return false;
  }
}

/**
 * Signature checks already made, by a SHA-256 of everything the answer depends on (algorithm, key,
 * signature, signed data). The root's and the TLDs' RRsets are checked in every scan, and a domain's
 * own signatures stay the same from one scan to the next for days, while an ECDSA check costs ~100 µs
 * and the digest ~2. A pure memo: the same bytes always verify the same way (the validity window is
 * judged apart, against the clock, on every use).
 */
const verifiedSignatures = new Map<string, boolean>();
const VERIFIED_LIMIT = 50_000;

/** verifySignature by the DNSKEY whose public key field is `keyField`, remembered; null when that field is no usable key. */
export function verifyWithKey(algorithm: number, keyField: Buffer, data: Buffer, signature: Buffer): boolean | 'unsupported' | null {
  const lengths = Buffer.allocUnsafe(9);
  lengths[0] = algorithm & 0xff;
  lengths.writeUInt32BE(keyField.length, 1);
  lengths.writeUInt32BE(signature.length, 5);
  const memoKey = createHash('sha256').update(lengths).update(keyField).update(signature).update(data).digest('base64');
  const known = verifiedSignatures.get(memoKey);
  if (known !== undefined) return known;
  const publicKey = publicKeyOf(algorithm, keyField);
  if (!publicKey) return null;
  const verified = verifySignature(algorithm, publicKey, data, signature);
  if (verified === 'unsupported') return verified;
  if (verifiedSignatures.size >= VERIFIED_LIMIT) verifiedSignatures.delete(verifiedSignatures.keys().next().value as string);
  verifiedSignatures.set(memoKey, verified);
  return verified;
}
