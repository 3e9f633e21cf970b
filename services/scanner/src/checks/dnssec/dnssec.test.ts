import { generateKeyPairSync, sign } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { labelCount, nameWire, rrsigTimeMs, signedOwner } from '../shared/dnssec/canonical.js';
import { dsDigest, keyTag, publicKeyOf, verifySignature, verifyWithKey } from '../shared/dnssec/crypto.js';
import { expiringFinding } from './findings.js';
import { dsPresentation, parseDsRecord, parseTrustAnchors, ROOT_KSK_2017, ROOT_KSK_2024 } from '../shared/dnssec/trust-anchor.js';

/** The root zone's KSK-2017 as published in the root zone (`. DNSKEY 257 3 8 …`). */
const ROOT_KSK_2017_KEY = Buffer.from(
  'AwEAAaz/tAm8yTn4Mfeh5eyI96WSVexTBAvkMgJzkKTOiW1vkIbzxeF3+/4RgWOq7HrxRixHlFlExOLAJr5emLvN7SWXgnLh4+B5xQlNVz8Og8kvArMtNROxVQuCaSnIDdD5LKyWbRd2n9WGe2R8PzgCmr3EgVLrjyBxWezF0jLHwVN8efS3rCj/EWgvIWgb9tarpVUDK/b58Da+sqqls3eNbuv7pr+eoZG+SrDK6nWeL3c6H5Apxz7LjVc1uTIdsIXxuOLYA4/ilBmSVIzuDWfdRUfhHdY6+cn8HFRm+2hM8AnXGXws9555KrUB5qihylGa8subX2Nn6UwNR1AkUTV74bU=',
  'base64',
);
const ROOT_KSK_RDATA = Buffer.concat([Buffer.from([0x01, 0x01, 3, 8]), ROOT_KSK_2017_KEY]);
/** KSK-2024, as IANA's root-anchors.xml lists it. */
const ROOT_KSK_2024_KEY = Buffer.from(
  'AwEAAa96jeuknZlaeSrvyAJj6ZHv28hhOKkx3rLGXVaC6rXTsDc449/cidltpkyGwCJNnOAlFNKF2jBosZBU5eeHspaQWOmOElZsjICMQMC3aeHbGiShvZsx4wMYSjH8e7Vrhbu6irwCzVBApESjbUdpWWmEnhathWu1jo+siFUiRAAxm9qyJNg/wOZqqzL/dL/q8PkcRU5oUKEpUge71M3ej2/7CPqpdVwuMoTvoB+ZOT4YeGyxMvHmbrxlFzGOHOijtzN+u1TQNatX2XBuzZNQ1K+s2CXkPIZo7s6JgZyvaBevYtxPvYLw4z9mR7K2vaF18UYH9Z9GNUUeayffKC73PYc=',
  'base64',
);

describe('DNSSEC crypto', () => {
  it('computes the key tag and the DS digest of the root KSK-2017 as IANA publishes them (RFC 4034 App. B, §5.1.4)', () => {
    expect(keyTag(ROOT_KSK_RDATA)).toBe(20326);
    expect(dsDigest(nameWire(''), ROOT_KSK_RDATA, 2)?.toString('hex')).toBe(ROOT_KSK_2017.digest);
    expect(dsDigest(nameWire(''), ROOT_KSK_RDATA, 3)).toBeNull();
    const ksk2024 = Buffer.concat([Buffer.from([0x01, 0x01, 3, 8]), ROOT_KSK_2024_KEY]);
    expect(keyTag(ksk2024)).toBe(ROOT_KSK_2024.keyTag);
    expect(dsDigest(nameWire(''), ksk2024, 2)?.toString('hex')).toBe(ROOT_KSK_2024.digest);
  });

  it('imports the RSA key of a DNSKEY (RFC 3110 §2)', () => {
    const key = publicKeyOf(8, ROOT_KSK_2017_KEY);
    expect(key?.asymmetricKeyType).toBe('rsa');
    expect(key?.asymmetricKeyDetails?.modulusLength).toBe(2048);
    expect(publicKeyOf(8, Buffer.from([1, 3]))).toBeNull();
    expect(publicKeyOf(13, Buffer.alloc(63))).toBeNull();
    expect(publicKeyOf(200, Buffer.alloc(64))).toBeNull();
  });

  it('verifies ECDSA signatures as r|s and rejects altered data or malformed signatures (RFC 6605 §4)', () => {
    const pair = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const jwk = pair.publicKey.export({ format: 'jwk' });
    const dnskey = Buffer.concat([Buffer.from(jwk.x as string, 'base64url'), Buffer.from(jwk.y as string, 'base64url')]);
    const key = publicKeyOf(13, dnskey);
    if (!key) throw new Error('no key');
    const data = Buffer.from('signed data');
    const signature = sign('sha256', data, { key: pair.privateKey, dsaEncoding: 'ieee-p1363' });
    expect(verifySignature(13, key, data, signature)).toBe(true);
    expect(verifySignature(13, key, Buffer.from('other data'), signature)).toBe(false);
    expect(verifySignature(13, key, data, signature.subarray(1))).toBe(false);
    expect(verifySignature(99, key, data, signature)).toBe('unsupported');
  });

  it('remembers a check by all its bytes: the same signature over other data, or by another key, is checked afresh', () => {
    const pair = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const other = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const field = (publicKey: typeof pair.publicKey) => {
      const jwk = publicKey.export({ format: 'jwk' });
      return Buffer.concat([Buffer.from(jwk.x as string, 'base64url'), Buffer.from(jwk.y as string, 'base64url')]);
    };
    const data = Buffer.from('the RRset, signed');
    const signature = sign('sha256', data, { key: pair.privateKey, dsaEncoding: 'ieee-p1363' });
    expect(verifyWithKey(13, field(pair.publicKey), data, signature)).toBe(true);
    expect(verifyWithKey(13, field(pair.publicKey), data, signature)).toBe(true);
    expect(verifyWithKey(13, field(pair.publicKey), Buffer.from('the RRset, changed'), signature)).toBe(false);
    expect(verifyWithKey(13, field(other.publicKey), data, signature)).toBe(false);
    expect(verifyWithKey(13, Buffer.alloc(10), data, signature)).toBeNull();
  });

  it('verifies Ed25519 signatures (RFC 8080 §4)', () => {
    const pair = generateKeyPairSync('ed25519');
    const key = publicKeyOf(15, Buffer.from(pair.publicKey.export({ format: 'jwk' }).x as string, 'base64url'));
    if (!key) throw new Error('no key');
    const data = Buffer.from('x');
    expect(verifySignature(15, key, data, sign(null, data, pair.privateKey))).toBe(true);
  });
});

describe('canonical form', () => {
  it('writes names as lower-case labels, the root as one zero byte (RFC 4034 §6.2)', () => {
    expect(nameWire('')).toEqual(Buffer.from([0]));
    expect(nameWire('Ab.C')).toEqual(Buffer.from([2, 0x61, 0x62, 1, 0x63, 0]));
  });

  it('counts labels without the root and a leading wildcard, and rebuilds a wildcard owner (RFC 4034 §3.1.3, RFC 4035 §5.3.2)', () => {
    expect(labelCount('')).toBe(0);
    expect(labelCount('www.example.com')).toBe(3);
    expect(labelCount('*.example.com')).toBe(2);
    expect(signedOwner('a.b.example.com', 2)).toBe('*.example.com');
    expect(signedOwner('example.com', 2)).toBe('example.com');
  });

  it('reads RRSIG times with serial arithmetic around now (RFC 4034 §3.1.5)', () => {
    const now = Date.UTC(2026, 0, 1);
    const inAWeek = Math.floor(now / 1000) + 7 * 86_400;
    expect(rrsigTimeMs(inAWeek, now)).toBe(inAWeek * 1000);
    // After 2106 the field has wrapped: still the nearest time to now.
    const later = Date.UTC(2107, 0, 1);
    const wrapped = (Math.floor(later / 1000) + 3_600) % 2 ** 32;
    expect(rrsigTimeMs(wrapped, later)).toBe(later + 3_600_000);
  });
});

describe('trust anchors', () => {
  it('parses DS records in presentation format, with or without TTL and class, digest split by spaces', () => {
    expect(parseDsRecord('. IN DS 20326 8 2 E06D44B80B8F1D39A95C0B0D7C65D08458E880409BBC683457104237C7F8EC8D')).toEqual(ROOT_KSK_2017);
    expect(parseDsRecord('example.com. 3600 IN DS 1234 13 2 AB CD')).toEqual({ zone: 'example.com', keyTag: 1234, algorithm: 13, digestType: 2, digest: 'abcd' });
    expect(parseDsRecord('Test. DS 1 13 2 00ff')).toMatchObject({ zone: 'test' });
    expect(dsPresentation(ROOT_KSK_2017)).toBe('. IN DS 20326 8 2 E06D44B80B8F1D39A95C0B0D7C65D08458E880409BBC683457104237C7F8EC8D');
    expect(parseTrustAnchors(`${dsPresentation(ROOT_KSK_2017)}; test. IN DS 1 13 2 00\n`)).toHaveLength(2);
    expect(parseTrustAnchors('  ')).toEqual([]);
  });

  it('refuses what is not a DS record', () => {
    expect(() => parseDsRecord('. IN DNSKEY 257 3 8 AwEAAa')).toThrow(RangeError);
    expect(() => parseDsRecord('. IN DS 20326 8 2 XYZ')).toThrow(/hex/);
    expect(() => parseDsRecord('. IN DS 20326 8')).toThrow(RangeError);
    expect(() => parseDsRecord('. IN DS 70000 8 2 00')).toThrow(RangeError);
  });
});

describe('expiring signatures', () => {
  const now = Date.UTC(2026, 5, 1);
  const day = 86_400_000;
  it('warns about a signature in the last quarter of its validity and within 7 days of expiry', () => {
    const late = { algorithm: 13, keyTag: 1, subject: 'example.com SOA', inceptionMs: now - 27 * day, expirationMs: now + 3 * day };
    expect(expiringFinding([late], now)).toMatchObject({ code: 'DNSSEC_SIGNATURE_EXPIRING', severity: 'warning', rfc: 'RFC 6781 §4.4.2' });
  });

  it('does not warn about the short-lived signatures of online signers', () => {
    const online = { algorithm: 13, keyTag: 1, subject: 'example.com SOA', inceptionMs: now - day, expirationMs: now + day };
    const week = { algorithm: 8, keyTag: 2, subject: 'com DS', inceptionMs: now - 2 * day, expirationMs: now + 5 * day };
    expect(expiringFinding([online, week], now)).toBeNull();
  });
});
