import { type HeaderField, firstField, parseHeaderFields } from './header-fields.js';

/** One leaf of a MIME tree, its body decoded from its transfer encoding. */
export interface MimeLeaf {
  /** Lower-cased media type, `text/plain` when absent (RFC 2045 §5.2). */
  type: string;
  headers: HeaderField[];
  body: string;
}

/** RFC 2046 §5.1.1 allows 70 characters; anything much longer is not a boundary we can trust. */
const MAX_BOUNDARY = 200;

/** Splits an entity into its header fields and body at the first empty line. */
export function splitEntity(text: string): { headers: HeaderField[]; body: string } {
  const end = text.startsWith('\n') ? 0 : text.indexOf('\n\n');
  if (end === -1) return { headers: parseHeaderFields(text), body: '' };
  return { headers: parseHeaderFields(text.slice(0, end)), body: text.slice(end + (end === 0 ? 1 : 2)) };
}

export function contentType(headers: HeaderField[]): { type: string; params: Map<string, string> } {
  const [type = '', ...rest] = (firstField(headers, 'content-type') ?? 'text/plain').split(';');
  const params = new Map<string, string>();
  for (const param of rest) {
    const equals = param.indexOf('=');
    if (equals === -1) continue;
    params.set(param.slice(0, equals).trim().toLowerCase(), unquote(param.slice(equals + 1).trim()));
  }
  return { type: type.trim().toLowerCase() || 'text/plain', params };
}

/**
 * The leaves of a message, depth first. Multiparts are followed `maxDepth` deep; a message/rfc822
 * part is a leaf (its headers are what a failure report carries, not parts to walk into).
 * Text is expected with LF line ends.
 */
export function mimeLeaves(text: string, maxDepth: number): MimeLeaf[] {
  const leaves: MimeLeaf[] = [];
  const visit = (entityText: string, depth: number): void => {
    const { headers, body } = splitEntity(entityText);
    const { type, params } = contentType(headers);
    const boundary = params.get('boundary');
    if (type.startsWith('multipart/') && boundary && boundary.length <= MAX_BOUNDARY) {
      if (depth < maxDepth) for (const part of splitMultipart(body, boundary)) visit(part, depth + 1);
      return;
    }
    leaves.push({ type, headers, body: decodeTransfer(body, firstField(headers, 'content-transfer-encoding')) });
  };
  visit(text, 0);
  return leaves;
}

/** RFC 2046 §5.1.1: parts lie between lines `--boundary`, ending at `--boundary--`. */
function splitMultipart(body: string, boundary: string): string[] {
  const delimiter = `--${boundary}`;
  const parts: string[] = [];
  let current: string[] | null = null;
  for (const line of body.split('\n')) {
    const bare = line.trimEnd();
    if (bare === delimiter || bare === `${delimiter}--`) {
      if (current) parts.push(current.join('\n'));
      if (bare !== delimiter) return parts;
      current = [];
    } else {
      current?.push(line);
    }
  }
  if (current) parts.push(current.join('\n'));
  return parts;
}

function decodeTransfer(body: string, encoding: string | null): string {
  switch (encoding?.trim().toLowerCase()) {
    case 'base64':
      return Buffer.from(body, 'base64').toString('utf8').replaceAll('\r\n', '\n');
    case 'quoted-printable':
      return decodeQuotedPrintable(body);
    default:
      return body;
  }
}

/** RFC 2045 §6.7, in one pass: `=XX` is a byte, `=` at a line end joins the lines. */
function decodeQuotedPrintable(body: string): string {
  const bytes: number[] = [];
  for (let i = 0; i < body.length; i++) {
    const char = body.charCodeAt(i);
    if (char !== 0x3d) {
      bytes.push(char & 0xff);
      continue;
    }
    if (body[i + 1] === '\n') {
      i += 1;
      continue;
    }
    const hex = Number.parseInt(body.slice(i + 1, i + 3), 16);
    if (Number.isNaN(hex)) bytes.push(char);
    else {
      bytes.push(hex);
      i += 2;
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

function unquote(value: string): string {
  return value.length >= 2 && value.startsWith('"') && value.endsWith('"') ? value.slice(1, -1) : value;
}
