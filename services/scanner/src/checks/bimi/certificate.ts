import { X509Certificate } from 'node:crypto';
import tls from 'node:tls';
import { gunzipSync } from 'node:zlib';
import { certificateExtensions, DerError, ia5Strings, subjectAttributes } from './der.js';

/**
 * The Mark Certificate at a= (a VMC or CMC): a PEM file with the leaf first, then its issuers. Read
 * with node:crypto; what it does not expose (the subject's markType, the logotype extension that
 * carries the logo, RFC 3709) is read from the DER (der.ts).
 */

/** id-kp-BrandIndicatorforMessageIdentification, the EKU every Mark Certificate carries. */
export const BIMI_EKU = '1.3.6.1.5.5.7.3.31';
/** subject:markType (BIMI Group MC Guidelines §7.1.4.2.2). */
export const MARK_TYPE_OID = '1.3.6.1.4.1.53087.1.13';
/** id-pe-logotype (RFC 3709 §4.1). */
export const LOGOTYPE_OID = '1.3.6.1.5.5.7.1.12';
/** Marks verified against a trademark office or a government: a Verified Mark Certificate. */
const VMC_MARKS = new Set(['Registered Mark', 'Government Mark']);
/** Marks verified by prior use (or a modified registered mark): a Common Mark Certificate. */
const CMC_MARKS = new Set(['Prior Use Mark', 'Modified Registered Mark', 'Pending Registration Mark']);
/** The embedded logo is decompressed up to this size (it should be far below; this bounds a gzip bomb). */
const MAX_EMBEDDED_LOGO = 1024 * 1024;
const DAY_MS = 86_400_000;

export interface MarkCertificate {
  subject: string;
  issuer: string;
  validFrom: Date;
  validTo: Date;
  daysRemaining: number;
  /** The subject's markType as published, e.g. "Registered Mark". */
  markTypeName: string | null;
  markType: 'VMC' | 'CMC' | null;
  bimiEku: boolean;
  /** DNS names of subjectAltName, lower-case. */
  dnsNames: string[];
  /** The SVG in the logotype extension (decompressed), null when there is none. */
  embeddedLogo: Buffer | null;
  /** The leaf is its own issuer. */
  selfSigned: boolean;
  /** A link of the chain that does not verify, in words (null when every link does). */
  chainProblem: string | null;
  /** The chain ends at a root the scanner trusts (true), breaks (false), or ends at a root it does not know (null). */
  trusted: boolean | null;
  /** The subject of the last certificate of the chain, for the message when trust is unknown. */
  topIssuer: string;
}

const PEM_BEGIN = '-----BEGIN CERTIFICATE-----';
const PEM_END = '-----END CERTIFICATE-----';
/** A mark certificate's chain is the leaf and one or two intermediates; more is no chain a receiver reads. */
export const MAX_CHAIN_CERTIFICATES = 10;

/** Node prints names one attribute a line; a report reads them on one. */
function oneLine(name: string): string {
  return name.split('\n').filter(Boolean).join(', ');
}

/** The trust store a TLS connection of the scanner uses: Node's roots plus the configured extra CA. */
const stores = new Map<string, X509Certificate[]>();
function trustStore(extraCa: string | undefined): X509Certificate[] {
  const key = extraCa ?? '';
  let store = stores.get(key);
  if (!store) {
    store = [];
    for (const pem of [...tls.rootCertificates, ...pemBlocks(extraCa ?? '', Number.POSITIVE_INFINITY)]) {
      try {
        store.push(new X509Certificate(pem));
      } catch {
        // A root Node itself cannot read is no anchor.
      }
    }
    stores.set(key, store);
  }
  return store;
}

function issuedBy(child: X509Certificate, parent: X509Certificate): boolean {
  try {
    return child.checkIssued(parent) && child.verify(parent.publicKey);
  } catch {
    return false;
  }
}

/** Each certificate is issued and signed by the next (RFC 5280 §6.1), then the last by a trusted root. */
function chainVerdict(chain: X509Certificate[], extraCa: string | undefined): { chainProblem: string | null; trusted: boolean | null } {
  for (let i = 0; i + 1 < chain.length; i++) {
    const child = chain[i] as X509Certificate;
    const parent = chain[i + 1] as X509Certificate;
    if (!issuedBy(child, parent)) {
      return { chainProblem: `certificate ${i + 1} (${oneLine(child.subject)}) is not issued and signed by the next one in the file (${oneLine(parent.subject)})`, trusted: false };
    }
  }
  const top = chain[chain.length - 1] as X509Certificate;
  const store = trustStore(extraCa);
  const anchored = store.some((root) => root.fingerprint256 === top.fingerprint256 || issuedBy(top, root));
  return { chainProblem: null, trusted: anchored ? true : null };
}

/** The SVG of the logotype extension: its data: URI (RFC 2397), base64, usually gzip-compressed. */
function embeddedLogo(extension: Buffer | undefined): Buffer | null {
  if (!extension) return null;
  let strings: string[];
  try {
    strings = ia5Strings(extension);
  } catch (error) {
    // X509Certificate does not read the logotype extension; a malformed one is no logo, not a crash.
    if (error instanceof DerError) return null;
    throw error;
  }
  const uri = strings.find((value) => /^data:image\/svg\+xml/i.test(value));
  if (!uri) return null;
  const comma = uri.indexOf(',');
  if (comma < 0) return null;
  const meta = uri.slice(0, comma);
  const payload = uri.slice(comma + 1);
  const bytes = /;base64$/i.test(meta) ? Buffer.from(payload, 'base64') : percentDecoded(payload);
  if (bytes === null) return null;
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) {
    try {
      return gunzipSync(bytes, { maxOutputLength: MAX_EMBEDDED_LOGO });
    } catch {
      return null;
    }
  }
  return bytes;
}

/** A data: URI's %-escaped payload (RFC 2397 §2) as bytes; null when an escape is broken. */
function percentDecoded(payload: string): Buffer | null {
  try {
    return Buffer.from(decodeURIComponent(payload), 'utf8');
  } catch {
    return null;
  }
}

function markTypeOf(name: string | null): 'VMC' | 'CMC' | null {
  if (name === null) return null;
  if (VMC_MARKS.has(name)) return 'VMC';
  if (CMC_MARKS.has(name)) return 'CMC';
  return null;
}

/**
 * The BEGIN…END CERTIFICATE blocks of a PEM file, found with indexOf: a lazy regular expression
 * rescans to the end of the file from every unclosed BEGIN, which is quadratic. At most `max` blocks.
 */
function pemBlocks(pem: string, max: number): string[] {
  const blocks: string[] = [];
  let from = 0;
  while (blocks.length < max) {
    const begin = pem.indexOf(PEM_BEGIN, from);
    if (begin < 0) break;
    // From the BEGIN nearest the END, so a stray BEGIN before a certificate does not swallow it.
    const end = pem.indexOf(PEM_END, begin + PEM_BEGIN.length);
    if (end < 0) break;
    const start = pem.lastIndexOf(PEM_BEGIN, end - PEM_BEGIN.length);
    blocks.push(pem.slice(start, end + PEM_END.length));
    from = end + PEM_END.length;
  }
  return blocks;
}

/** The certificates of a PEM file, leaf first; a string when it holds none Node can read. */
export function readPemChain(pem: string): X509Certificate[] | string {
  // One block past the cap is enough to tell there are too many.
  const blocks = pemBlocks(pem, MAX_CHAIN_CERTIFICATES + 1);
  if (blocks.length === 0) return 'it holds no PEM certificate ("-----BEGIN CERTIFICATE-----")';
  if (blocks.length > MAX_CHAIN_CERTIFICATES) return `it holds more than ${MAX_CHAIN_CERTIFICATES} certificates, more than any mark certificate chain`;
  const chain: X509Certificate[] = [];
  for (const [index, block] of blocks.entries()) {
    try {
      chain.push(new X509Certificate(block));
    } catch {
      return `certificate ${index + 1} of the file cannot be read`;
    }
  }
  return chain;
}

export function inspectMarkCertificate(chain: X509Certificate[], extraCa: string | undefined, now = new Date()): MarkCertificate | string {
  const leaf = chain[0] as X509Certificate;
  let extensions: Map<string, Buffer>;
  let markTypeName: string | null;
  try {
    extensions = certificateExtensions(leaf.raw);
    markTypeName = subjectAttributes(leaf.raw, MARK_TYPE_OID)[0] ?? null;
  } catch {
    return 'its first certificate is not valid DER';
  }
  const validFrom = new Date(leaf.validFrom);
  const validTo = new Date(leaf.validTo);
  const dnsNames = (leaf.subjectAltName ?? '')
    .split(/,\s*/)
    .filter((entry) => entry.startsWith('DNS:'))
    .map((entry) => entry.slice(4).toLowerCase());
  const selfSigned = issuedBy(leaf, leaf);
  const { chainProblem, trusted } = selfSigned ? { chainProblem: null, trusted: false } : chainVerdict(chain, extraCa);
  return {
    subject: oneLine(leaf.subject),
    issuer: oneLine(leaf.issuer),
    validFrom,
    validTo,
    daysRemaining: Math.floor((validTo.getTime() - now.getTime()) / DAY_MS),
    markTypeName,
    markType: markTypeOf(markTypeName),
    bimiEku: (leaf.keyUsage ?? []).includes(BIMI_EKU),
    dnsNames,
    embeddedLogo: embeddedLogo(extensions.get(LOGOTYPE_OID)),
    selfSigned,
    chainProblem,
    trusted,
    topIssuer: oneLine((chain[chain.length - 1] as X509Certificate).issuer),
  };
}
