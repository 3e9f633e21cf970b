import { simpleParser } from 'mailparser';
import { ReportRefusal, refuse } from '../refusal.js';

/** One attachment of a message, as declared: its type and name are claims to be checked against its bytes. */
export interface MimePart {
  contentType: string;
  name: string | null;
  bytes: Buffer;
}

/**
 * mailparser slows superlinearly with the number of header lines (29,000 one-line fields take
 * over a second); a report message has a few dozen, a long Received chain a few hundred.
 */
const MAX_HEADER_LINES = 1_000;

/** Lines before the first empty line (RFC 5322 §2.1), counted only as far as the cap. */
function headerLines(message: Uint8Array): number {
  let lines = 0;
  let lineStart = 0;
  for (let at = 0; at < message.length && lines <= MAX_HEADER_LINES; at += 1) {
    if (message[at] !== 0x0a) continue;
    const length = at - lineStart - (message[at - 1] === 0x0d ? 1 : 0);
    if (length <= 0) return lines;
    lines += 1;
    lineStart = at + 1;
  }
  return lines;
}

/**
 * The attachments of an RFC 5322 / MIME message, transfer encodings undone (mailparser decodes
 * base64 with any line breaks and missing padding). A single-part message whose body is not text
 * comes back as one attachment; a forwarded message (message/rfc822) comes back whole, for the
 * caller to open at the next nesting level.
 */
export async function mimeParts(message: Uint8Array): Promise<MimePart[]> {
  if (headerLines(message) > MAX_HEADER_LINES) {
    refuse('MALFORMED_CONTAINER', `The email message has more than ${MAX_HEADER_LINES} header lines, far more than any real message.`);
  }
  try {
    const parsed = await simpleParser(Buffer.from(message.buffer, message.byteOffset, message.byteLength), {
      skipHtmlToText: true,
      skipTextToHtml: true,
      skipImageLinks: true,
      skipTextLinks: true,
    });
    return parsed.attachments.map((attachment) => ({
      contentType: attachment.contentType.toLowerCase(),
      name: attachment.filename ?? null,
      bytes: attachment.content,
    }));
  } catch (error) {
    if (error instanceof ReportRefusal) throw error;
    return refuse('MALFORMED_CONTAINER', 'The email message could not be read as MIME.');
  }
}
