/**
 * The intake's one MIME reader (RFC 2045, 2046, 2183, 5322), for every report that comes by mail:
 * aggregate reports attached to a message (containers/), failure reports (failure/).
 *
 * Why our own and not mailparser: mailparser's simpleParser is asynchronous and was measured slow on
 * hostile input (~350 ms on a 256 KB plain body of `X: a` lines, and superlinear in header lines:
 * 29,000 one-line fields took 1.6 s), and it folds a message/rfc822 part into the text body, losing
 * where a failure report's original headers begin. This reader is synchronous and linear: it works
 * on bytes (so a gzip or zip attachment survives unchanged), finds every line end once, unfolds
 * header fields by joining their pieces once, and decodes a body in one pass. It reads only what
 * reports need: header fields, Content-Type and Content-Disposition parameters (RFC 2231 included),
 * the transfer encodings, multiparts, and message/rfc822 parts, which are leaves whose bytes are the
 * embedded message (the caller opens it as a message of its own, and counts that as a level).
 *
 * Caps, all from limits.ts: entities in a message (`mimeParts`) and header lines in one entity
 * (`mimeHeaderLines`) are refused past the cap as MALFORMED_CONTAINER; multiparts nested more than
 * `nestingDepth` deep are not followed (their leaves are not returned), as a real report is one or
 * two deep.
 */
import { REPORT_LIMITS, type ReportLimits } from '../limits.js';
import { refuse } from '../refusal.js';
import { type HeaderField, firstField, parseHeaderFields } from './header-fields.js';
import { parseStructuredValue } from './header-params.js';
import { decodeTransferEncoding } from './transfer-encoding.js';

/** One leaf of a MIME tree, its body's transfer encoding undone. */
export interface MimeLeaf {
  /** Lower-cased media type, `text/plain` when absent (RFC 2045 §5.2). */
  type: string;
  headers: HeaderField[];
  /** The Content-Disposition filename, else the Content-Type name (both claims, to be checked). */
  name: string | null;
  body: Buffer;
}

const LF = 0x0a;
const CR = 0x0d;
const DASH = 0x2d;
/** RFC 2046 §5.1.1 allows 70 characters; anything much longer is not a boundary we can trust. */
const MAX_BOUNDARY = 200;

/** The end of the line starting at `at` (the index of its LF, or the length) and where the next starts. */
function lineAt(bytes: Uint8Array, at: number): { end: number; next: number } {
  const lf = bytes.indexOf(LF, at);
  if (lf === -1) return { end: bytes.length, next: bytes.length };
  return { end: lf > at && bytes[lf - 1] === CR ? lf - 1 : lf, next: lf + 1 };
}

/**
 * Splits an entity at its first empty line (RFC 5322 §2.1) into header fields and body; an entity
 * without an empty line is all headers (text/rfc822-headers is). Refuses more than
 * `limits.mimeHeaderLines` header lines, counting only as far as the cap.
 */
export function readEntityHeaders(entity: Buffer, limits: ReportLimits = REPORT_LIMITS): { headers: HeaderField[]; body: Buffer } {
  let lines = 0;
  let at = 0;
  while (at < entity.length) {
    const { end, next } = lineAt(entity, at);
    if (end === at) {
      return { headers: parseHeaderFields(headerText(entity, at)), body: entity.subarray(next) };
    }
    lines += 1;
    if (lines > limits.mimeHeaderLines) {
      refuse('MALFORMED_CONTAINER', `The email message has more than ${limits.mimeHeaderLines} header lines in one part, far more than any real message.`);
    }
    at = next;
  }
  return { headers: parseHeaderFields(headerText(entity, entity.length)), body: entity.subarray(entity.length) };
}

/** Header fields are ASCII or, since RFC 6532, UTF-8; line ends become LF for parseHeaderFields. */
function headerText(entity: Buffer, end: number): string {
  return entity.toString('utf8', 0, end).replaceAll('\r\n', '\n');
}

/** Is the line `bytes[start, end)` `--boundary` (then `--` when `closing`), white space after it allowed? */
function isDelimiter(bytes: Buffer, start: number, end: number, boundary: Buffer): 'open' | 'close' | null {
  if (end - start < boundary.length + 2 || bytes[start] !== DASH || bytes[start + 1] !== DASH) return null;
  if (bytes.compare(boundary, 0, boundary.length, start + 2, start + 2 + boundary.length) !== 0) return null;
  let at = start + 2 + boundary.length;
  const closing = bytes[at] === DASH && bytes[at + 1] === DASH;
  if (closing) at += 2;
  while (at < end && (bytes[at] === 0x20 || bytes[at] === 0x09)) at += 1; // transport padding (§5.1.1)
  if (at !== end) return null;
  return closing ? 'close' : 'open';
}

/**
 * RFC 2046 §5.1.1: the parts between `--boundary` lines, up to `--boundary--` (or the end, when a
 * sender forgets it). The line end before a delimiter belongs to the delimiter, not to the part.
 */
function splitMultipart(body: Buffer, boundary: Buffer, onPart: (part: Buffer) => void): void {
  let partStart = -1;
  let at = 0;
  while (at < body.length) {
    const { end, next } = lineAt(body, at);
    const delimiter = isDelimiter(body, at, end, boundary);
    if (delimiter) {
      if (partStart !== -1) {
        let partEnd = at;
        if (partEnd > partStart && body[partEnd - 1] === LF) partEnd -= 1;
        if (partEnd > partStart && body[partEnd - 1] === CR) partEnd -= 1;
        onPart(body.subarray(partStart, partEnd));
      }
      if (delimiter === 'close') return;
      partStart = next;
    }
    at = next;
  }
  if (partStart !== -1 && partStart < body.length) onPart(body.subarray(partStart));
}

/**
 * The leaves of `message`, depth first, in the order they appear. A message/rfc822 part is a leaf
 * whose body is the embedded message; a single-part message is one leaf.
 */
export function readMimeLeaves(message: Uint8Array, limits: ReportLimits = REPORT_LIMITS): MimeLeaf[] {
  const leaves: MimeLeaf[] = [];
  let entities = 0;
  const visit = (entity: Buffer, depth: number): void => {
    entities += 1;
    if (entities > limits.mimeParts) {
      refuse('MALFORMED_CONTAINER', `The email message has more than ${limits.mimeParts} MIME parts, far more than any real report.`);
    }
    const { headers, body } = readEntityHeaders(entity, limits);
    const contentType = parseStructuredValue(firstField(headers, 'content-type'));
    const type = contentType.value.includes('/') ? contentType.value : 'text/plain';
    const boundary = contentType.params.get('boundary');
    if (type.startsWith('multipart/') && boundary && boundary.length <= MAX_BOUNDARY) {
      if (depth < limits.nestingDepth) splitMultipart(body, Buffer.from(boundary), (part) => visit(part, depth + 1));
      return;
    }
    const disposition = parseStructuredValue(firstField(headers, 'content-disposition'));
    leaves.push({
      type,
      headers,
      name: disposition.params.get('filename') || contentType.params.get('name') || null,
      body: decodeTransferEncoding(body, firstField(headers, 'content-transfer-encoding')),
    });
  };
  visit(Buffer.from(message.buffer, message.byteOffset, message.byteLength), 0);
  return leaves;
}
