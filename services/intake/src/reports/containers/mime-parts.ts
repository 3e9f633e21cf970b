import { simpleParser } from 'mailparser';
import { ReportRefusal, refuse } from '../refusal.js';

/** One attachment of a message, as declared: its type and name are claims to be checked against its bytes. */
export interface MimePart {
  contentType: string;
  name: string | null;
  bytes: Buffer;
}

/**
 * The attachments of an RFC 5322 / MIME message, transfer encodings undone (mailparser decodes
 * base64 with any line breaks and missing padding). A single-part message whose body is not text
 * comes back as one attachment; a forwarded message (message/rfc822) comes back whole, for the
 * caller to open at the next nesting level.
 */
export async function mimeParts(message: Uint8Array): Promise<MimePart[]> {
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
