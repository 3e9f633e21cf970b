/**
 * Undoes a Content-Transfer-Encoding (RFC 2045 §6) on bytes, in one pass. base64 is read as
 * senders write it, not as the RFC says: any line length, CRLF or LF, padding missing (Node's
 * decoder skips characters outside the alphabet and does not need the '='). 7bit, 8bit, binary and
 * anything unknown are taken as they are (§6.4 says an unknown encoding may be treated as binary).
 */
export function decodeTransferEncoding(body: Buffer, encoding: string | null): Buffer {
  switch (encoding?.trim().toLowerCase()) {
    case 'base64':
      return Buffer.from(body.toString('latin1'), 'base64');
    case 'quoted-printable':
      return decodeQuotedPrintable(body);
    default:
      return body;
  }
}

const EQUALS = 0x3d;
const CR = 0x0d;
const LF = 0x0a;

function hexValue(byte: number | undefined): number {
  if (byte === undefined) return -1;
  if (byte >= 0x30 && byte <= 0x39) return byte - 0x30;
  const lower = byte | 0x20;
  return lower >= 0x61 && lower <= 0x66 ? lower - 0x61 + 10 : -1;
}

/**
 * RFC 2045 §6.7: `=XX` is one byte; `=` ending a line (spaces and tabs may follow it, rule 3) is a
 * soft break that joins the lines. A `=` that is neither is kept as it is.
 */
export function decodeQuotedPrintable(body: Uint8Array): Buffer {
  const out = Buffer.allocUnsafe(body.length);
  let length = 0;
  for (let at = 0; at < body.length; at += 1) {
    const byte = body[at] as number;
    if (byte !== EQUALS) {
      out[length++] = byte;
      continue;
    }
    const high = hexValue(body[at + 1]);
    const low = hexValue(body[at + 2]);
    if (high !== -1 && low !== -1) {
      out[length++] = high * 16 + low;
      at += 2;
      continue;
    }
    let next = at + 1;
    while (body[next] === 0x20 || body[next] === 0x09) next += 1;
    if (body[next] === LF) {
      at = next;
      continue;
    }
    if (body[next] === CR && body[next + 1] === LF) {
      at = next + 1;
      continue;
    }
    out[length++] = byte;
  }
  return out.subarray(0, length);
}
