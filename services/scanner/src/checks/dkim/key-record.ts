import { createPublicKey } from 'node:crypto';
import type { Finding } from '@sendwell/contracts';
import { isRecordTooLarge, limitFindings, recordTooLargeFinding } from '../input-caps.js';
import { colonList, parseTagList, tagValue, type TagList } from '../shared/tag-list.js';

/**
 * A DKIM key record (RFC 6376 §3.6.1) read into what a verifier would use, with every problem as a
 * finding. The key's type and size come from the key bytes, never from what `k=` claims.
 */

/** RFC 8301 §3.2: verifiers MUST NOT accept keys under 1024 bits; signers SHOULD use at least 2048. */
export const RSA_MIN_BITS = 1024;
export const RSA_RECOMMENDED_BITS = 2048;
/** RFC 8301 §3.2: verifiers need only validate keys up to 4096 bits. */
export const RSA_MAX_VERIFIABLE_BITS = 4096;
/** RFC 8463 §3: an Ed25519 public key is the raw 32 bytes. */
const ED25519_KEY_BYTES = 32;

export interface DkimKeyAnalysis {
  /** The key's real type ('rsa', 'ed25519') or the declared `k=` when the key could not be read. */
  keyType: string | null;
  /** RSA modulus length, 256 for Ed25519; null when unknown (revoked, unreadable). */
  keyBits: number | null;
  /** `t=y`: the domain is testing DKIM and verifiers treat failures as unsigned (§3.6.1). */
  testing: boolean;
  /** `t=s`: the signature's i= domain must equal d= exactly (no subdomains). */
  strict: boolean;
  /** `p=` empty: the key was revoked (§3.6.1). */
  revoked: boolean;
  /** `h=` as published (null: all algorithms). */
  hashAlgorithms: string[] | null;
  /** `s=` (default '*'). */
  serviceTypes: string[];
  /** `n=`, notes for people. */
  notes: string | null;
  /** The key encoding found in `p=`. */
  keyFormat: 'spki' | 'pkcs1' | 'raw' | null;
  findings: Finding[];
  /** A key a verifier would accept: read, long enough, not revoked, no error. */
  usable: boolean;
}

/**
 * Whether a TXT record at a selector is meant as a DKIM key record: it names DKIM1 or carries `p=`.
 * Anything else (an SPF record or a site-verification token caught by a wildcard) is not a key.
 */
export function looksLikeDkimKey(text: string): boolean {
  const trimmed = text.trimStart();
  if (/^v\s*=\s*DKIM1\b/i.test(trimmed)) return true;
  return /(?:^|;)\s*p\s*=/.test(trimmed);
}

const BASE64 = /^[A-Z0-9+/]*={0,2}$/i;

function finding(
  code: string,
  severity: Finding['severity'],
  message: string,
  rfc: string,
  recommendation?: string,
): Finding {
  return recommendation === undefined ? { code, severity, message, rfc } : { code, severity, message, rfc, recommendation };
}

function tagListFindings(list: TagList, where: string): Finding[] {
  const findings: Finding[] = [];
  for (const fault of list.faults) {
    if (fault.kind === 'duplicate') {
      findings.push(
        finding(
          'DKIM_DUPLICATE_TAG',
          'error',
          `${where} has the tag "${fault.name}=" more than once, which makes the whole record invalid.`,
          'RFC 6376 §3.2',
          `Keep a single "${fault.name}=" tag in the record.`,
        ),
      );
    } else {
      findings.push(
        finding(
          'DKIM_RECORD_SYNTAX',
          'error',
          `${where} is not a valid tag list at "${fault.segment}": ${fault.reason}.`,
          'RFC 6376 §3.2',
          'Publish the record as "tag=value" pairs separated by ";", e.g. "v=DKIM1; k=rsa; p=<key>".',
        ),
      );
    }
  }
  return findings;
}

interface DecodedKey {
  type: string;
  bits: number | null;
  format: 'spki' | 'pkcs1' | 'raw';
}

/** A DER element: its tag, where its contents start and end. */
interface DerElement {
  tag: number;
  start: number;
  end: number;
}

/** One definite-length DER element at `offset` (X.690 §8.1), or null if malformed or past `limit`. */
function derElement(der: Buffer, offset: number, limit: number): DerElement | null {
  if (offset + 2 > limit) return null;
  const tag = der[offset] as number;
  let length = der[offset + 1] as number;
  let start = offset + 2;
  if (length & 0x80) {
    const count = length & 0x7f;
    // Minimal long form only (DER): one or two length bytes cover any key a DKIM record can hold.
    if (count === 0 || count > 2 || start + count > limit) return null;
    length = 0;
    for (let i = 0; i < count; i++) length = length * 256 + (der[start + i] as number);
    if (length < 0x80 || (count === 2 && length < 0x100)) return null;
    start += count;
  }
  const end = start + length;
  return end > limit ? null : { tag, start, end };
}

/** A positive, minimally encoded INTEGER's bit length, else null. */
function positiveIntegerBits(der: Buffer, element: DerElement): number | null {
  if (element.tag !== 0x02 || element.end === element.start) return null;
  let first = element.start;
  if ((der[first] as number) & 0x80) return null; // negative
  if (der[first] === 0) {
    if (element.end - first === 1 || !((der[first + 1] as number) & 0x80)) return null; // zero or not minimal
    first++;
  }
  return (element.end - first - 1) * 8 + (32 - Math.clz32(der[first] as number));
}

/** AlgorithmIdentifier of rsaEncryption (1.2.840.113549.1.1.1) with NULL parameters, as DER. */
const RSA_ENCRYPTION_ALGORITHM = Buffer.from('300d06092a864886f70d0101010500', 'hex');

/**
 * The modulus length of a well-formed SPKI rsaEncryption key, read from the DER directly; null for
 * anything else, which createPublicKey then reads. OpenSSL 3 resolves a DER key through its generic
 * decoder chain, the dearest step of the DKIM check, for the one number the check needs from the
 * usual key; anything unusual (another algorithm, PKCS#1, a flaw) still goes through OpenSSL.
 */
function rsaSpkiModulusBits(der: Buffer): number | null {
  const spki = derElement(der, 0, der.length);
  if (!spki || spki.tag !== 0x30 || spki.end !== der.length) return null;
  const algorithmEnd = spki.start + RSA_ENCRYPTION_ALGORITHM.length;
  if (algorithmEnd > spki.end || !der.subarray(spki.start, algorithmEnd).equals(RSA_ENCRYPTION_ALGORITHM)) return null;
  const bitString = derElement(der, algorithmEnd, spki.end);
  // A BIT STRING with no unused bits, the last element of the SPKI.
  if (!bitString || bitString.tag !== 0x03 || bitString.end !== spki.end || der[bitString.start] !== 0) return null;
  const rsaKey = derElement(der, bitString.start + 1, bitString.end);
  if (!rsaKey || rsaKey.tag !== 0x30 || rsaKey.end !== bitString.end) return null;
  const modulus = derElement(der, rsaKey.start, rsaKey.end);
  if (!modulus) return null;
  const exponent = derElement(der, modulus.end, rsaKey.end);
  if (!exponent || exponent.end !== rsaKey.end || positiveIntegerBits(der, exponent) === null) return null;
  return positiveIntegerBits(der, modulus);
}

/** Reads the DER bytes of `p=` as SPKI, else PKCS#1 RSAPublicKey (RFC 6376 erratum 3017). */
function decodeDer(der: Buffer): DecodedKey | null {
  const rsaBits = rsaSpkiModulusBits(der);
  if (rsaBits !== null) return { type: 'rsa', bits: rsaBits, format: 'spki' };
  for (const type of ['spki', 'pkcs1'] as const) {
    try {
      const key = createPublicKey({ key: der, format: 'der', type });
      const keyType = key.asymmetricKeyType ?? 'unknown';
      return { type: keyType, bits: key.asymmetricKeyDetails?.modulusLength ?? null, format: type };
    } catch {
      // Not this encoding; try the next.
    }
  }
  return null;
}

/** A record that was not read: nothing a verifier could use, and the finding that says why. */
function unreadRecord(why: Finding): DkimKeyAnalysis {
  return { keyType: null, keyBits: null, testing: false, strict: false, revoked: false, hashAlgorithms: null, serviceTypes: ['*'], notes: null, keyFormat: null, findings: [why], usable: false };
}

const REGENERATE = 'Generate a new 2048-bit RSA key pair in your mail system and publish the public key it shows.';

export function analyseDkimKeyRecord(text: string, selector: string): DkimKeyAnalysis {
  const where = `The DKIM record at selector "${selector}"`;
  if (isRecordTooLarge(text)) return unreadRecord(recordTooLargeFinding('DKIM_RECORD_TOO_LARGE', `DKIM record at selector "${selector}"`, text.length, 'RFC 6376 §3.6.1'));
  const list = parseTagList(text);
  const findings = tagListFindings(list, where);

  const version = tagValue(list, 'v');
  if (version !== undefined) {
    if (version !== 'DKIM1') {
      findings.push(
        finding(
          'DKIM_VERSION_INVALID',
          'error',
          `${where} has "v=${version}"; verifiers discard records whose version is not DKIM1.`,
          'RFC 6376 §3.6.1',
          'Set "v=DKIM1" or remove the v= tag.',
        ),
      );
    } else if (list.tags[0]?.name !== 'v') {
      findings.push(
        finding(
          'DKIM_VERSION_NOT_FIRST',
          'warning',
          `${where} has "v=DKIM1" but not as its first tag, as the standard requires; strict verifiers reject it.`,
          'RFC 6376 §3.6.1',
          'Move "v=DKIM1;" to the start of the record.',
        ),
      );
    }
  }

  const flags = colonList(tagValue(list, 't') ?? '');
  const testing = flags.includes('y');
  const strict = flags.includes('s');
  if (testing) {
    findings.push(
      finding(
        'DKIM_TESTING_MODE',
        'warning',
        `${where} is in testing mode (t=y): receivers may treat its signatures as if the mail were unsigned.`,
        'RFC 6376 §3.6.1',
        'Once signing works, remove "y" from the t= tag.',
      ),
    );
  }
  if (strict) {
    findings.push(
      finding(
        'DKIM_STRICT_MODE',
        'info',
        `${where} is in strict mode (t=s): signatures whose i= identity is a subdomain of d= will not verify.`,
        'RFC 6376 §3.6.1',
      ),
    );
  }

  const hashTag = tagValue(list, 'h');
  const hashAlgorithms = hashTag === undefined ? null : colonList(hashTag).map((algorithm) => algorithm.toLowerCase());
  if (hashAlgorithms) {
    if (hashAlgorithms.includes('sha256')) {
      // Fine: sha1 beside sha256 only allows what RFC 8301 forbids verifiers to accept anyway.
    } else if (hashAlgorithms.includes('sha1')) {
      findings.push(
        finding(
          'DKIM_HASH_SHA1_ONLY',
          'warning',
          `${where} allows only SHA-1 (h=sha1), which verifiers no longer accept.`,
          'RFC 8301 §3.1',
          'Remove the h= tag or set "h=sha256", and sign with rsa-sha256.',
        ),
      );
    } else {
      findings.push(
        finding(
          'DKIM_HASH_UNSUPPORTED',
          'error',
          `${where} allows only the hash algorithms "${hashTag ?? ''}", none of which verifiers support, so no signature can verify.`,
          'RFC 6376 §3.6.1',
          'Remove the h= tag or set "h=sha256".',
        ),
      );
    }
  }

  const serviceTypes = colonList(tagValue(list, 's') ?? '*').map((service) => service.toLowerCase());
  if (!serviceTypes.includes('*') && !serviceTypes.includes('email')) {
    findings.push(
      finding(
        'DKIM_SERVICE_NOT_EMAIL',
        'error',
        `${where} is restricted to the services "${serviceTypes.join(':')}", so it cannot verify email.`,
        'RFC 6376 §3.6.1',
        'Remove the s= tag or set "s=email".',
      ),
    );
  }

  const declaredType = (tagValue(list, 'k') ?? 'rsa').toLowerCase();
  const rawKey = tagValue(list, 'p');
  const result: DkimKeyAnalysis = {
    keyType: declaredType,
    keyBits: null,
    testing,
    strict,
    revoked: false,
    hashAlgorithms,
    serviceTypes,
    notes: tagValue(list, 'n') ?? null,
    keyFormat: null,
    findings,
    usable: false,
  };

  if (declaredType !== 'rsa' && declaredType !== 'ed25519') {
    findings.push(
      finding(
        'DKIM_KEY_TYPE_UNKNOWN',
        'error',
        `${where} declares the key type "k=${declaredType}", which verifiers do not know and ignore.`,
        'RFC 6376 §3.6.1',
        'Use "k=rsa" (or omit k=) with an RSA key, or "k=ed25519" with an Ed25519 key.',
      ),
    );
  }

  if (rawKey === undefined) {
    findings.push(
      finding(
        'DKIM_KEY_MISSING',
        'error',
        `${where} has no "p=" tag, so it carries no public key.`,
        'RFC 6376 §3.6.1',
        'Publish the record your mail system gives you, including its "p=" public key.',
      ),
    );
    return finish(result);
  }

  const base64 = rawKey.replace(/[ \t\r\n]+/g, '');
  if (base64.length === 0) {
    result.revoked = true;
    findings.push(
      finding(
        'DKIM_KEY_REVOKED',
        'info',
        `${where} is revoked (empty p=): signatures made with it fail.`,
        'RFC 6376 §3.6.1',
        'If you no longer sign with this selector this is fine; otherwise publish its public key.',
      ),
    );
    return finish(result);
  }

  if (!BASE64.test(base64) || base64.length % 4 !== 0) {
    findings.push(
      finding(
        'DKIM_KEY_INVALID_BASE64',
        'error',
        `${where} has a "p=" value that is not valid base64 (often a key cut short or pasted with quotes).`,
        'RFC 6376 §3.6.1',
        'Copy the public key again from your mail system, in full and without quotes or line breaks.',
      ),
    );
    return finish(result);
  }

  const bytes = Buffer.from(base64, 'base64');
  if (declaredType === 'ed25519') {
    analyseEd25519(bytes, where, result);
  } else if (declaredType === 'rsa') {
    analyseRsa(bytes, where, result);
  }
  return finish(result);
}

function analyseEd25519(bytes: Buffer, where: string, result: DkimKeyAnalysis): void {
  result.keyType = 'ed25519';
  if (bytes.length === ED25519_KEY_BYTES) {
    result.keyBits = 256;
    result.keyFormat = 'raw';
    return;
  }
  const decoded = decodeDer(bytes);
  if (decoded?.type === 'ed25519') {
    result.keyFormat = decoded.format;
    result.findings.push(
      finding(
        'DKIM_ED25519_KEY_FORMAT',
        'error',
        `${where} publishes its Ed25519 key wrapped in ASN.1 (SubjectPublicKeyInfo); verifiers expect the raw 32-byte key.`,
        'RFC 8463 §4.2',
        'Publish only the last 32 bytes of the key, base64-encoded (44 characters).',
      ),
    );
    return;
  }
  result.findings.push(
    finding(
      'DKIM_KEY_INVALID',
      'error',
      `${where} declares k=ed25519 but "p=" holds ${bytes.length} bytes, not a 32-byte Ed25519 key.`,
      'RFC 8463 §4.2',
      'Publish the Ed25519 public key your mail system generated, or fix the k= tag.',
    ),
  );
}

function analyseRsa(bytes: Buffer, where: string, result: DkimKeyAnalysis): void {
  const decoded = decodeDer(bytes);
  if (!decoded) {
    result.findings.push(
      finding(
        'DKIM_KEY_INVALID',
        'error',
        `${where} has a "p=" value that is not an RSA public key (it may be truncated or corrupted).`,
        'RFC 6376 §3.6.1',
        'Copy the public key again from your mail system, in full; long keys are split into several quoted strings of one TXT record.',
      ),
    );
    return;
  }
  result.keyFormat = decoded.format;
  result.keyType = decoded.type;
  if (decoded.type !== 'rsa') {
    result.findings.push(
      finding(
        'DKIM_KEY_TYPE_MISMATCH',
        'error',
        `${where} declares an RSA key (k=rsa or no k=) but publishes a ${decoded.type} key.`,
        'RFC 6376 §3.6.1',
        decoded.type === 'ed25519'
          ? 'Set "k=ed25519" and publish the raw 32-byte key (RFC 8463).'
          : 'Publish an RSA public key, or the key type your signer really uses.',
      ),
    );
    return;
  }
  result.keyBits = decoded.bits;
  if (decoded.format === 'pkcs1') {
    result.findings.push(
      finding(
        'DKIM_KEY_PKCS1',
        'warning',
        `${where} publishes a bare RSAPublicKey (PKCS#1) instead of the usual SubjectPublicKeyInfo; some verifiers cannot read it.`,
        'RFC 6376 §3.6.1 (erratum 3017)',
        'Publish the key as SubjectPublicKeyInfo (the "MII..." form that "openssl rsa -pubout" prints).',
      ),
    );
  }
  const bits = decoded.bits ?? 0;
  if (bits < RSA_MIN_BITS) {
    result.findings.push(
      finding(
        'DKIM_KEY_TOO_SHORT',
        'error',
        `${where} has a ${bits}-bit RSA key; verifiers must reject keys under ${RSA_MIN_BITS} bits, and such keys can be broken.`,
        'RFC 8301 §3.2',
        REGENERATE,
      ),
    );
  } else if (bits < RSA_RECOMMENDED_BITS) {
    result.findings.push(
      finding(
        'DKIM_KEY_WEAK',
        'warning',
        `${where} has a ${bits}-bit RSA key; ${RSA_RECOMMENDED_BITS} bits is the recommended minimum.`,
        'RFC 8301 §3.2',
        REGENERATE,
      ),
    );
  } else if (bits > RSA_MAX_VERIFIABLE_BITS) {
    result.findings.push(
      finding(
        'DKIM_KEY_TOO_LONG',
        'warning',
        `${where} has a ${bits}-bit RSA key; verifiers need only support up to ${RSA_MAX_VERIFIABLE_BITS} bits, so some may fail it.`,
        'RFC 8301 §3.2',
        'Use a 2048-bit (or at most 4096-bit) RSA key.',
      ),
    );
  }
}

function finish(result: DkimKeyAnalysis): DkimKeyAnalysis {
  result.findings = limitFindings(result.findings);
  result.usable = !result.revoked && result.keyBits !== null && !result.findings.some((f) => f.severity === 'error');
  return result;
}
