import { createPublicKey, generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { analyseDkimKeyRecord, looksLikeDkimKey } from './key-record.js';

function rsaKey(bits: number, type: 'spki' | 'pkcs1' = 'spki'): string {
  const { publicKey } = generateKeyPairSync('rsa', { modulusLength: bits });
  return publicKey.export({ format: 'der', type }).toString('base64');
}

function ed25519Key(raw = true): string {
  const { publicKey } = generateKeyPairSync('ed25519');
  const der = publicKey.export({ format: 'der', type: 'spki' });
  return (raw ? der.subarray(der.length - 32) : der).toString('base64');
}

const codes = (text: string) => analyseDkimKeyRecord(text, 's').findings.map((finding) => finding.code);

describe('analyseDkimKeyRecord', () => {
  const rsa2048 = rsaKey(2048);

  it('reads an RSA-2048 key from the key bytes', () => {
    const result = analyseDkimKeyRecord(`v=DKIM1; k=rsa; p=${rsa2048}`, 's');
    expect(result).toMatchObject({ keyType: 'rsa', keyBits: 2048, keyFormat: 'spki', usable: true, revoked: false });
    expect(result.findings).toEqual([]);
  });

  it('reads RSA SPKI keys from the DER as OpenSSL does, damaged ones included', () => {
    /** What OpenSSL makes of the bytes: the key type and size, or null when it reads neither SPKI nor PKCS#1. */
    const openssl = (der: Buffer): [string, number | null] | null => {
      for (const type of ['spki', 'pkcs1'] as const) {
        try {
          const key = createPublicKey({ key: der, format: 'der', type });
          return [key.asymmetricKeyType ?? 'unknown', key.asymmetricKeyDetails?.modulusLength ?? null];
        } catch {
          // the next encoding
        }
      }
      return null;
    };
    const ours = (der: Buffer): [string, number | null] | null => {
      const result = analyseDkimKeyRecord(`v=DKIM1; k=rsa; p=${der.toString('base64')}`, 's');
      return result.keyBits === null ? null : [result.keyType ?? 'unknown', result.keyBits];
    };
    for (const bits of [1023, 2048]) {
      const der = Buffer.from(rsaKey(bits), 'base64');
      const variants = [der, Buffer.concat([der, Buffer.from([0])])];
      for (let cut = 1; cut < 40; cut++) variants.push(der.subarray(0, der.length - cut), der.subarray(0, cut));
      // Every bit of the headers (SPKI, algorithm, BIT STRING, RSAPublicKey, modulus) flipped in turn.
      for (let index = 0; index < 36; index++) {
        for (let bit = 0; bit < 8; bit++) {
          const flipped = Buffer.from(der);
          flipped[index] = (flipped[index] as number) ^ (1 << bit);
          variants.push(flipped);
        }
      }
      for (const variant of variants) expect(ours(variant)).toEqual(openssl(variant));
    }
  });

  it('ignores whitespace inside p= and unknown tags', () => {
    const spaced = `${rsa2048.slice(0, 100)} ${rsa2048.slice(100)}`;
    const result = analyseDkimKeyRecord(`v=DKIM1; g=*; x=y; p=${spaced}`, 's');
    expect(result.usable).toBe(true);
    expect(result.findings).toEqual([]);
  });

  it('grades key lengths per RFC 8301', () => {
    expect(codes(`p=${rsaKey(1024)}`)).toEqual(['DKIM_KEY_WEAK']);
    expect(codes(`p=${rsaKey(512)}`)).toEqual(['DKIM_KEY_TOO_SHORT']);
    expect(analyseDkimKeyRecord(`p=${rsaKey(512)}`, 's').usable).toBe(false);
  });

  it('accepts a PKCS#1 RSAPublicKey with a warning', () => {
    const result = analyseDkimKeyRecord(`v=DKIM1; p=${rsaKey(2048, 'pkcs1')}`, 's');
    expect(result).toMatchObject({ keyBits: 2048, keyFormat: 'pkcs1', usable: true });
    expect(result.findings.map((finding) => finding.code)).toEqual(['DKIM_KEY_PKCS1']);
  });

  it('reads raw Ed25519 keys and rejects wrapped ones', () => {
    expect(analyseDkimKeyRecord(`v=DKIM1; k=ed25519; p=${ed25519Key()}`, 's')).toMatchObject({
      keyType: 'ed25519',
      keyBits: 256,
      usable: true,
    });
    expect(codes(`v=DKIM1; k=ed25519; p=${ed25519Key(false)}`)).toEqual(['DKIM_ED25519_KEY_FORMAT']);
    expect(codes(`v=DKIM1; k=ed25519; p=${rsa2048}`)).toEqual(['DKIM_KEY_INVALID']);
    expect(codes(`v=DKIM1; p=${ed25519Key(false)}`)).toEqual(['DKIM_KEY_TYPE_MISMATCH']);
  });

  it('flags revoked, missing, garbage and truncated keys', () => {
    expect(analyseDkimKeyRecord('v=DKIM1; p=', 's')).toMatchObject({ revoked: true, usable: false });
    expect(codes('v=DKIM1; p=')).toEqual(['DKIM_KEY_REVOKED']);
    expect(codes('v=DKIM1; k=rsa')).toEqual(['DKIM_KEY_MISSING']);
    expect(codes('v=DKIM1; p=not*base64!')).toEqual(['DKIM_KEY_INVALID_BASE64']);
    expect(codes(`v=DKIM1; p=${rsa2048.slice(0, 200)}`)).toEqual(['DKIM_KEY_INVALID']);
  });

  it('checks v=, k=, h=, s= and t=', () => {
    expect(codes(`v=DKIM2; p=${rsa2048}`)).toEqual(['DKIM_VERSION_INVALID']);
    expect(codes(`p=${rsa2048}; v=DKIM1`)).toEqual(['DKIM_VERSION_NOT_FIRST']);
    expect(codes(`k=dsa; p=${rsa2048}`)).toEqual(['DKIM_KEY_TYPE_UNKNOWN']);
    expect(codes(`h=sha1; p=${rsa2048}`)).toEqual(['DKIM_HASH_SHA1_ONLY']);
    expect(codes(`h=sha1:sha256; p=${rsa2048}`)).toEqual([]);
    expect(codes(`h=md5; p=${rsa2048}`)).toEqual(['DKIM_HASH_UNSUPPORTED']);
    expect(codes(`s=tlsrpt; p=${rsa2048}`)).toEqual(['DKIM_SERVICE_NOT_EMAIL']);
    expect(codes(`s=email:tlsrpt; p=${rsa2048}`)).toEqual([]);
    const flagged = analyseDkimKeyRecord(`t=y:s; p=${rsa2048}`, 's');
    expect(flagged).toMatchObject({ testing: true, strict: true, usable: true });
    expect(flagged.findings.map((finding) => finding.code)).toEqual(['DKIM_TESTING_MODE', 'DKIM_STRICT_MODE']);
  });

  it('makes duplicate tags an error', () => {
    expect(codes(`v=DKIM1; p=${rsa2048}; p=${rsa2048}`)).toEqual(['DKIM_DUPLICATE_TAG']);
  });

  it('gives every finding an RFC clause and a message naming the selector', () => {
    for (const finding of analyseDkimKeyRecord('v=DKIM2; k=dsa; h=sha1; t=y; p=@@', 'sel9').findings) {
      expect(finding.rfc).toMatch(/^RFC \d+ §/);
      expect(finding.message).toContain('"sel9"');
    }
  });
});

describe('looksLikeDkimKey', () => {
  it('tells key records from other TXT records', () => {
    expect(looksLikeDkimKey('v=DKIM1; p=abc')).toBe(true);
    expect(looksLikeDkimKey('k=rsa; p=abc')).toBe(true);
    expect(looksLikeDkimKey('p=')).toBe(true);
    expect(looksLikeDkimKey('v=spf1 -all')).toBe(false);
    expect(looksLikeDkimKey('google-site-verification=abc')).toBe(false);
  });
});
