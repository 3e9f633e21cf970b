// @peculiar/x509 resolves its algorithms through tsyringe, which needs a Reflect polyfill loaded first.
import 'reflect-metadata';
import { createHash, webcrypto } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import * as x509 from '@peculiar/x509';
import type { TestCa, TestCertificate } from './tls.js';

/**
 * Mark Certificates (BIMI's VMC and CMC) for tests, shaped as Mark Verifying Authorities issue them:
 * the BIMI extended key usage (1.3.6.1.5.5.7.3.31), the subject's markType
 * (1.3.6.1.4.1.53087.1.13), the brand's domains in subjectAltName, and the SVG logo gzip-compressed
 * in a data: URI inside the logotype extension (RFC 3709, subjectLogo → direct → image). Every
 * part can be left out or changed, for the certificates a check must reject.
 */

x509.cryptoProvider.set(webcrypto as unknown as Parameters<typeof x509.cryptoProvider.set>[0]);

const DAY_MS = 24 * 60 * 60 * 1000;
const BIMI_EKU = '1.3.6.1.5.5.7.3.31';
const MARK_TYPE_OID = '1.3.6.1.4.1.53087.1.13';
const LOGOTYPE_OID = '1.3.6.1.5.5.7.1.12';
/** id-sha256 (RFC 5758 §2), DER. */
const SHA256_OID = Buffer.from('0609608648016503040201', 'hex');

export interface MarkCertOptions {
  /** DNS names in subjectAltName: the domains the mark is used for. */
  domains: string[];
  /** The logo embedded in the logotype extension; omitted, the certificate carries none. */
  svg?: string | Buffer;
  /** The subject's markType; default "Registered Mark" (a VMC), "Prior Use Mark" for a CMC, null for none. */
  markType?: string | null;
  /** The BIMI extended key usage; default true. */
  bimiEku?: boolean;
  /** Subject CN and O; default "Sendwell Test Brand". */
  organization?: string;
  /** Default: one day ago. */
  notBefore?: Date;
  /** Default: 365 days from now. */
  notAfter?: Date;
}

/** One DER TLV with a definite length (X.690 §8.1.3). */
function tlv(tag: number, content: Buffer): Buffer {
  const length = content.length;
  if (length < 0x80) return Buffer.concat([Buffer.from([tag, length]), content]);
  const bytes: number[] = [];
  for (let rest = length; rest > 0; rest = Math.floor(rest / 256)) bytes.unshift(rest % 256);
  return Buffer.concat([Buffer.from([tag, 0x80 | bytes.length, ...bytes]), content]);
}

const sequence = (...parts: Buffer[]): Buffer => tlv(0x30, Buffer.concat(parts));
const ia5 = (text: string): Buffer => tlv(0x16, Buffer.from(text, 'latin1'));

/** LogotypeExtn with one subject logo image (RFC 3709 §4.1, IMPLICIT TAGS module). */
function logotypeExtension(svg: Buffer): Buffer {
  const dataUri = `data:image/svg+xml;base64,${gzipSync(svg).toString('base64')}`;
  const hash = sequence(sequence(SHA256_OID), tlv(0x04, createHash('sha256').update(svg).digest()));
  const details = sequence(ia5('image/svg+xml'), sequence(hash), sequence(ia5(dataUri)));
  const image = sequence(details);
  // subjectLogo [2] EXPLICIT LogotypeInfo; direct [0] LogotypeData, whose `image` is a SEQUENCE OF LogotypeImage.
  return sequence(tlv(0xa2, tlv(0xa0, sequence(image))));
}

function rsaParams(): webcrypto.RsaHashedKeyGenParams {
  return { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256', publicExponent: new Uint8Array([1, 0, 1]), modulusLength: 2048 };
}

function serialNumber(): string {
  const bytes = webcrypto.getRandomValues(new Uint8Array(16));
  bytes[0] = ((bytes[0] ?? 0) & 0x7f) | 0x01;
  return Buffer.from(bytes).toString('hex');
}

/** A Mark Certificate signed by `ca`; publish `cert` followed by `ca.cert` as the PEM file at a=. */
export async function issueMarkCertificate(ca: TestCa, options: MarkCertOptions): Promise<TestCertificate> {
  const keys = (await webcrypto.subtle.generateKey(rsaParams(), true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
  const now = Date.now();
  const organization = options.organization ?? 'Sendwell Test Brand';
  const markType = options.markType === undefined ? 'Registered Mark' : options.markType;
  const subject: x509.JsonName = [{ CN: [organization] }, { O: [organization] }, ...(markType === null ? [] : [{ [MARK_TYPE_OID]: [markType] }])];
  const extensions: x509.Extension[] = [
    new x509.BasicConstraintsExtension(false, undefined, true),
    new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
    new x509.SubjectAlternativeNameExtension(options.domains.map((value) => ({ type: 'dns' as const, value }))),
    await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    await x509.AuthorityKeyIdentifierExtension.create(ca.keys.publicKey),
  ];
  if (options.bimiEku !== false) extensions.push(new x509.ExtendedKeyUsageExtension([BIMI_EKU]));
  if (options.svg !== undefined) extensions.push(new x509.Extension(LOGOTYPE_OID, false, logotypeExtension(Buffer.from(options.svg))));
  const certificate = await x509.X509CertificateGenerator.create({
    serialNumber: serialNumber(),
    subject,
    issuer: ca.certificate.subject,
    notBefore: options.notBefore ?? new Date(now - DAY_MS),
    notAfter: options.notAfter ?? new Date(now + 365 * DAY_MS),
    signingAlgorithm: rsaParams(),
    publicKey: keys.publicKey,
    signingKey: ca.keys.privateKey,
    extensions,
  });
  const key = x509.PemConverter.encode(await webcrypto.subtle.exportKey('pkcs8', keys.privateKey), 'PRIVATE KEY');
  return { cert: certificate.toString('pem'), key };
}
