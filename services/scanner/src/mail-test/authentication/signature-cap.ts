/**
 * A message may carry any number of DKIM-Signature fields, and a verifier hashes the body once per
 * canonicalization and l= value and looks up a key per signature: hundreds of them cost hundreds of
 * DNS questions. Only the first MAX_VERIFIED_SIGNATURES (the newest, added at the top) are verified;
 * the rest are taken out of the copy handed to the verifier.
 */
export const MAX_VERIFIED_SIGNATURES = 10;

export interface CappedMessage {
  message: Buffer;
  /** The DKIM-Signature fields kept, unfolded field text after the colon, in header order. */
  signatures: string[];
  /** How many were taken out. */
  dropped: number;
}

function isDkimSignatureField(field: string): boolean {
  const colon = field.indexOf(':');
  return colon > 0 && field.slice(0, colon).trim().toLowerCase() === 'dkim-signature';
}

/** Where the header section ends: the offset of the empty line's first byte, or the length when there is no body. */
function headerEnd(text: string): number {
  let start = 0;
  while (start < text.length) {
    const newline = text.indexOf('\n', start);
    if (newline < 0) return text.length;
    const line = text.slice(start, newline);
    if (line === '' || line === '\r') return start;
    start = newline + 1;
  }
  return text.length;
}

/** Keeps the first `max` DKIM-Signature fields; one pass over the header lines, bytes kept as they are (latin1). */
export function capDkimSignatures(raw: Buffer, max = MAX_VERIFIED_SIGNATURES): CappedMessage {
  const text = raw.toString('latin1');
  const end = headerEnd(text);
  const fields: string[] = [];
  let start = 0;
  while (start < end) {
    const newline = text.indexOf('\n', start);
    const lineEnd = newline < 0 || newline >= end ? end : newline + 1;
    const line = text.slice(start, lineEnd);
    // A line starting with white space continues the field before it (RFC 5322 §2.2.3).
    const continues = fields.length > 0 && (line.startsWith(' ') || line.startsWith('\t'));
    if (continues) fields[fields.length - 1] += line;
    else fields.push(line);
    start = lineEnd;
  }
  const kept: string[] = [];
  const signatures: string[] = [];
  let dropped = 0;
  for (const field of fields) {
    if (!isDkimSignatureField(field)) {
      kept.push(field);
      continue;
    }
    if (signatures.length >= max) {
      dropped++;
      continue;
    }
    kept.push(field);
    signatures.push(field.slice(field.indexOf(':') + 1).replace(/\r?\n/g, ''));
  }
  if (dropped === 0) return { message: raw, signatures, dropped };
  return { message: Buffer.concat([Buffer.from(kept.join(''), 'latin1'), raw.subarray(end)]), signatures, dropped };
}
