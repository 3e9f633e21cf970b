import { createHash, createPublicKey, X509Certificate } from 'node:crypto';
import type { TlsaAnswer } from '../../dns/types.js';

/** Certificate usages (RFC 6698 §2.1.1, names from RFC 7218 §2.1). */
export const DANE_TA = 2;
export const DANE_EE = 3;

const USAGE_NAMES = ['PKIX-TA', 'PKIX-EE', 'DANE-TA', 'DANE-EE'];
/** Digest lengths of the matching types (RFC 6698 §2.1.3): SHA-256 and SHA-512. */
const DIGESTS: Record<number, { bytes: number; name: string; algorithm: string }> = {
  1: { bytes: 32, name: 'SHA-256', algorithm: 'sha256' },
  2: { bytes: 64, name: 'SHA-512', algorithm: 'sha512' },
};
const HEX = /^(?:[0-9a-f]{2})*$/;

/** "3 1 1 <hex>", the record's presentation form (RFC 6698 §2.2). */
export function presentation(record: TlsaAnswer): string {
  return `${record.usage} ${record.selector} ${record.matchingType} ${record.data}`;
}

/** "DANE-EE(3)". */
export function usageName(usage: number): string {
  const name = USAGE_NAMES[usage];
  return name ? `${name}(${usage})` : `usage ${usage}`;
}

export interface RecordProblem {
  problem: string;
  rfc: string;
}

/**
 * Why a record cannot be used (RFC 6698 §2.1): an unassigned usage, selector or matching type, a
 * digest of the wrong length, or full data that is not a certificate / SubjectPublicKeyInfo. A sender
 * treats such a record as unusable (RFC 7671 §4).
 */
export function recordProblem(record: TlsaAnswer): RecordProblem | null {
  if (record.usage > DANE_EE) return { problem: `certificate usage ${record.usage} is not defined (0 to 3)`, rfc: 'RFC 6698 §2.1.1' };
  if (record.selector > 1) return { problem: `selector ${record.selector} is not defined (0 full certificate, 1 SubjectPublicKeyInfo)`, rfc: 'RFC 6698 §2.1.2' };
  if (record.matchingType > 2) return { problem: `matching type ${record.matchingType} is not defined (0 exact, 1 SHA-256, 2 SHA-512)`, rfc: 'RFC 6698 §2.1.3' };
  if (!HEX.test(record.data)) return { problem: 'the association data is not hexadecimal', rfc: 'RFC 6698 §2.1.4' };
  const bytes = record.data.length / 2;
  if (bytes === 0) return { problem: 'the record carries no certificate association data', rfc: 'RFC 6698 §2.1.4' };
  const digest = DIGESTS[record.matchingType];
  if (digest && bytes !== digest.bytes) {
    return { problem: `a ${digest.name} digest (matching type ${record.matchingType}) is ${digest.bytes} bytes, but the record holds ${bytes}`, rfc: 'RFC 6698 §2.1.3' };
  }
  if (record.matchingType === 0 && !parsesAs(Buffer.from(record.data, 'hex'), record.selector)) {
    return { problem: `the data is not a DER ${record.selector === 0 ? 'certificate' : 'SubjectPublicKeyInfo'} (matching type 0 holds it in full)`, rfc: 'RFC 6698 §2.1.4' };
  }
  return null;
}

function parsesAs(der: Buffer, selector: number): boolean {
  try {
    if (selector === 0) new X509Certificate(der);
    else createPublicKey({ key: der, format: 'der', type: 'spki' });
    return true;
  } catch {
    return false;
  }
}

/** One certificate of the presented chain, with its associations computed once per selector and matching type. */
export class ChainCertificate {
  private readonly associations = new Map<string, string>();
  private parsed: X509Certificate | null | undefined;

  constructor(readonly der: Buffer) {}

  /** The parsed certificate, or null when Node cannot read it. */
  get x509(): X509Certificate | null {
    if (this.parsed === undefined) {
      try {
        this.parsed = new X509Certificate(this.der);
      } catch {
        this.parsed = null;
      }
    }
    return this.parsed;
  }

  /**
   * The association data this certificate gives (RFC 6698 §2.1.2, §2.1.3), lower-case hex: selector
   * 0 the DER certificate, 1 its SubjectPublicKeyInfo; matching type 0 as is, 1 SHA-256, 2 SHA-512.
   */
  association(selector: number, matchingType: number): string | null {
    const key = `${selector} ${matchingType}`;
    const cached = this.associations.get(key);
    if (cached !== undefined) return cached;
    const selected = selector === 0 ? this.der : this.x509?.publicKey.export({ type: 'spki', format: 'der' });
    if (!selected) return null;
    const digest = DIGESTS[matchingType];
    const value = digest ? createHash(digest.algorithm).update(selected).digest('hex') : selected.toString('hex');
    this.associations.set(key, value);
    return value;
  }
}

export type ChainMatch = { record: TlsaAnswer; depth: number };

/**
 * The first usable record that matches the chain (RFC 7672 §3.1): DANE-EE(3) against the leaf only,
 * DANE-TA(2) against a certificate above it that the chain from the leaf leads to, each link issued
 * and signed by the next. PKIX usages and malformed records are not usable for SMTP and never match.
 */
export function matchChain(records: readonly TlsaAnswer[], chain: readonly ChainCertificate[]): ChainMatch | null {
  const leaf = chain[0];
  if (!leaf) return null;
  for (const record of records) {
    if (record.usage !== DANE_EE || recordProblem(record)) continue;
    if (leaf.association(record.selector, record.matchingType) === record.data) return { record, depth: 0 };
  }
  for (const record of records) {
    if (record.usage !== DANE_TA || recordProblem(record)) continue;
    for (let depth = 1; depth < chain.length; depth++) {
      if (chain[depth]?.association(record.selector, record.matchingType) === record.data && linked(chain, depth)) return { record, depth };
    }
  }
  return null;
}

/** Each certificate below `depth` is issued and signed by the next one up. */
function linked(chain: readonly ChainCertificate[], depth: number): boolean {
  for (let index = 0; index < depth; index++) {
    const child = chain[index]?.x509;
    const parent = chain[index + 1]?.x509;
    if (!child || !parent || !child.checkIssued(parent)) return false;
    try {
      if (!child.verify(parent.publicKey)) return false;
    } catch {
      return false;
    }
  }
  return true;
}

/** The DANE-EE record a sender would need for this certificate: "3 1 1 <SHA-256 of its SubjectPublicKeyInfo>". */
export function eeRecordFor(certificate: ChainCertificate): string | null {
  const data = certificate.association(1, 1);
  return data === null ? null : `3 1 1 ${data}`;
}
