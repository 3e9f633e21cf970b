/**
 * What a blob is, judged by its first bytes: receivers label attachments wrongly often enough that
 * the content type and file name only decide whether a part is worth looking at, never how to read it.
 */
export type BlobKind = 'gzip' | 'zip' | 'xml' | 'json' | 'mime' | 'unknown';

const UTF8_BOM = [0xef, 0xbb, 0xbf];

/** zip local file header "PK\3\4", or the end record "PK\5\6" of an empty archive (APPNOTE 4.3.7, 4.3.16). */
export function isZip(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && ((bytes[2] === 3 && bytes[3] === 4) || (bytes[2] === 5 && bytes[3] === 6));
}

function isGzipMagic(bytes: Uint8Array): boolean {
  return bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b;
}

/** The first byte after a UTF-8 byte order mark and XML white space (XML 1.0 §2.3 S). */
function firstSignificantByte(bytes: Uint8Array): number | undefined {
  let at = UTF8_BOM.every((byte, index) => bytes[index] === byte) ? 3 : 0;
  // Only a short lead is looked at: a report never starts with kilobytes of blanks.
  const end = Math.min(bytes.length, at + 1024);
  while (at < end && (bytes[at] === 0x20 || bytes[at] === 0x09 || bytes[at] === 0x0a || bytes[at] === 0x0d)) at += 1;
  return bytes[at];
}

export function looksLikeXml(bytes: Uint8Array): boolean {
  return firstSignificantByte(bytes) === 0x3c; // '<'
}

/** A JSON object (a TLS-RPT report, RFC 8460 §4.4); judged before MIME, since `{"a":` also reads as a header field. */
export function looksLikeJson(bytes: Uint8Array): boolean {
  return firstSignificantByte(bytes) === 0x7b; // '{'
}

/**
 * An RFC 5322 message starts with a header field: a name of printable characters other than ':'
 * (§3.6.8), then ':'. Looked at over the first line only, byte by byte (no regular expression).
 */
export function looksLikeMime(bytes: Uint8Array): boolean {
  const end = Math.min(bytes.length, 998); // RFC 5322 §2.1.1: no line longer than 998 characters
  for (let at = 0; at < end; at += 1) {
    const byte = bytes[at] as number;
    if (byte === 0x3a) return at > 0;
    if (byte < 0x21 || byte > 0x7e) return false;
  }
  return false;
}

export function sniff(bytes: Uint8Array): BlobKind {
  if (isGzipMagic(bytes)) return 'gzip';
  if (isZip(bytes)) return 'zip';
  if (looksLikeXml(bytes)) return 'xml';
  if (looksLikeJson(bytes)) return 'json';
  if (looksLikeMime(bytes)) return 'mime';
  return 'unknown';
}
