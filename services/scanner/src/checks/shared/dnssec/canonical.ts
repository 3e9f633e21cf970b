import type { DnssecRecord, DnssecSignature } from '../../../dns/types.js';

/**
 * The canonical form DNSSEC signs (RFC 4034 §6): names as lower-case uncompressed labels, the RRset's
 * records in canonical order by rdata (§6.3) without duplicates, each with the RRSIG's original TTL.
 * Names here are lower-case without the trailing dot, '' for the root (as queryDnssec gives them).
 */

/** The wire form of a name (RFC 4034 §6.2). */
export function nameWire(name: string): Buffer {
  if (name === '') return Buffer.from([0]);
  const parts: Buffer[] = [];
  for (const label of name.toLowerCase().split('.')) {
    const bytes = Buffer.from(label, 'utf8');
    parts.push(Buffer.from([bytes.length]), bytes);
  }
  parts.push(Buffer.from([0]));
  return Buffer.concat(parts);
}

/** The labels of a name as the RRSIG Labels field counts them: not the root, not a leading `*` (RFC 4034 §3.1.3). */
export function labelCount(name: string): number {
  if (name === '') return 0;
  const labels = name.split('.');
  return labels[0] === '*' ? labels.length - 1 : labels.length;
}

/** Whether `name` is `ancestor` or below it. */
export function isAtOrBelow(name: string, ancestor: string): boolean {
  if (ancestor === '') return true;
  return name === ancestor || name.endsWith(`.${ancestor}`);
}

/** The name one label up; null above the root. */
export function parentName(name: string): string | null {
  if (name === '') return null;
  const dot = name.indexOf('.');
  return dot < 0 ? '' : name.slice(dot + 1);
}

/** How a zone or name is written in messages and details: without the trailing dot, the root as ".". */
export function displayName(name: string): string {
  return name === '' ? '.' : name;
}

/**
 * The owner the signature covers (RFC 4035 §5.3.2): the name itself, or for a wildcard expansion
 * (Labels fewer than the owner's labels) `*.` and the rightmost Labels labels.
 */
export function signedOwner(owner: string, labels: number): string {
  const count = labelCount(owner);
  if (labels >= count) return owner;
  const kept = labels === 0 ? '' : owner.split('.').slice(-labels).join('.');
  return kept === '' ? '*' : `*.${kept}`;
}

/** RFC 4034 §3.1.8.1: signature = sign(RRSIG_RDATA without the signature | RR(1) | RR(2) …), RRs in canonical order. */
export function signedData(signature: DnssecSignature, rrset: readonly DnssecRecord[]): Buffer {
  const first = rrset[0];
  if (!first) return Buffer.from(signature.signedPrefix);
  const owner = nameWire(signedOwner(first.name, signature.labels));
  const fixed = Buffer.alloc(8);
  fixed.writeUInt16BE(first.typeCode, 0);
  fixed.writeUInt16BE(1, 2); // class IN
  fixed.writeUInt32BE(signature.originalTtl, 4);
  const unique = new Map<string, Buffer>();
  for (const record of rrset) unique.set(record.rdata.toString('hex'), record.rdata);
  const ordered = [...unique.values()].sort(Buffer.compare);
  const parts: Buffer[] = [signature.signedPrefix];
  for (const rdata of ordered) {
    const length = Buffer.alloc(2);
    length.writeUInt16BE(rdata.length);
    parts.push(owner, fixed, length, rdata);
  }
  return Buffer.concat(parts);
}

/**
 * An RRSIG time field as milliseconds since 1970: the 32-bit value is taken modulo 2^32 nearest to
 * now (serial number arithmetic, RFC 4034 §3.1.5, RFC 1982), so it keeps working after 2106.
 */
export function rrsigTimeMs(value: number, nowMs: number): number {
  const now = Math.floor(nowMs / 1000);
  let diff = (value - (now % 2 ** 32) + 2 ** 32) % 2 ** 32;
  if (diff >= 2 ** 31) diff -= 2 ** 32;
  return (now + diff) * 1000;
}
