/**
 * Just enough DER (ITU-T X.690 §8, §10) to read what node:crypto's X509Certificate does not expose:
 * the certificate's extensions by OID and the attributes of its subject name. Definite lengths only
 * (DER forbids the indefinite form); anything malformed throws DerError.
 */

export class DerError extends Error {
  override name = 'DerError';
}

export interface DerNode {
  /** The identifier octet, e.g. 0x30 SEQUENCE, 0x06 OBJECT IDENTIFIER, 0xa3 [3] constructed. */
  tag: number;
  constructed: boolean;
  /** The contents octets. */
  content: Buffer;
  /** Offset just past this node in the buffer it was read from. */
  end: number;
}

export const TAG = {
  boolean: 0x01,
  octetString: 0x04,
  oid: 0x06,
  utf8String: 0x0c,
  printableString: 0x13,
  ia5String: 0x16,
  sequence: 0x30,
  set: 0x31,
} as const;

/** One TLV at `offset`; multi-byte tags (tag number ≥ 31) are not used by the structures read here. */
export function readNode(buffer: Buffer, offset = 0): DerNode {
  if (offset + 2 > buffer.length) throw new DerError('truncated header');
  const tag = buffer[offset] as number;
  if ((tag & 0x1f) === 0x1f) throw new DerError('multi-byte tags are not supported');
  let lengthByte = buffer[offset + 1] as number;
  let cursor = offset + 2;
  let length = lengthByte;
  if (lengthByte & 0x80) {
    const count = lengthByte & 0x7f;
    if (count === 0 || count > 4) throw new DerError('unsupported length');
    if (cursor + count > buffer.length) throw new DerError('truncated length');
    length = 0;
    for (let i = 0; i < count; i++) {
      lengthByte = buffer[cursor + i] as number;
      length = length * 256 + lengthByte;
    }
    cursor += count;
  }
  const end = cursor + length;
  if (end > buffer.length) throw new DerError('content runs past the end');
  return { tag, constructed: (tag & 0x20) !== 0, content: buffer.subarray(cursor, end), end };
}

/** The nodes inside a constructed node, in order. */
export function childrenOf(node: DerNode): DerNode[] {
  if (!node.constructed) throw new DerError('not a constructed node');
  const nodes: DerNode[] = [];
  let offset = 0;
  while (offset < node.content.length) {
    const child = readNode(node.content, offset);
    nodes.push(child);
    offset = child.end;
  }
  return nodes;
}

/** Dotted form of an OBJECT IDENTIFIER's contents (X.690 §8.19). */
export function decodeOid(content: Buffer): string {
  if (content.length === 0) throw new DerError('empty OID');
  const arcs: number[] = [];
  let value = 0;
  for (const byte of content) {
    value = value * 128 + (byte & 0x7f);
    if (byte & 0x80) continue;
    if (arcs.length === 0) arcs.push(value < 80 ? Math.floor(value / 40) : 2, value < 80 ? value % 40 : value - 80);
    else arcs.push(value);
    value = 0;
  }
  return arcs.join('.');
}

/** tbsCertificate's fields (RFC 5280 §4.1): the [0] version is optional, so positions shift by one. */
function tbsFields(certificateDer: Buffer): DerNode[] {
  const certificate = readNode(certificateDer);
  const tbs = childrenOf(certificate)[0];
  if (!tbs || tbs.tag !== TAG.sequence) throw new DerError('no tbsCertificate');
  return childrenOf(tbs);
}

/** Each extension's extnValue contents (the inner DER) by its extnID (RFC 5280 §4.1.2.9). */
export function certificateExtensions(certificateDer: Buffer): Map<string, Buffer> {
  const extensions = new Map<string, Buffer>();
  const wrapper = tbsFields(certificateDer).find((field) => field.tag === 0xa3);
  if (!wrapper) return extensions;
  const list = childrenOf(wrapper)[0];
  if (!list) return extensions;
  for (const extension of childrenOf(list)) {
    const parts = childrenOf(extension);
    const id = parts[0];
    const value = parts[parts.length - 1];
    if (id?.tag !== TAG.oid || value?.tag !== TAG.octetString) throw new DerError('malformed extension');
    extensions.set(decodeOid(id.content), value.content);
  }
  return extensions;
}

/** The values of the subject's attributes of type `oid` (RFC 5280 §4.1.2.6), as text. */
export function subjectAttributes(certificateDer: Buffer, oid: string): string[] {
  const fields = tbsFields(certificateDer);
  const subject = fields[fields[0]?.tag === 0xa0 ? 5 : 4];
  if (subject?.tag !== TAG.sequence) throw new DerError('no subject');
  const values: string[] = [];
  for (const rdn of childrenOf(subject)) {
    for (const attribute of childrenOf(rdn)) {
      const [type, value] = childrenOf(attribute);
      if (type?.tag === TAG.oid && value && decodeOid(type.content) === oid) values.push(value.content.toString('utf8'));
    }
  }
  return values;
}

/** Every IA5String anywhere under `der` (depth-limited), e.g. the URIs of a logotype extension (RFC 3709 §4.1). */
export function ia5Strings(der: Buffer, maxDepth = 16): string[] {
  const found: string[] = [];
  const walk = (node: DerNode, depth: number): void => {
    if (node.tag === TAG.ia5String) found.push(node.content.toString('latin1'));
    if (!node.constructed || depth >= maxDepth) return;
    for (const child of childrenOf(node)) walk(child, depth + 1);
  };
  walk(readNode(der), 0);
  return found;
}
