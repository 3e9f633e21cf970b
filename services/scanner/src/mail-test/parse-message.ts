import { simpleParser, type AddressObject, type EmailAddress, type ParsedMail } from 'mailparser';
import { MAX_LINK_CHARS, MAX_LINKS, walkHtml, type HtmlWalk } from './message/html-walk.js';

/**
 * A test message read once, with every cap decided before parsing: the intake bounds the message,
 * and what is taken from it is bounded again here (header values, the HTML walked for links), so a
 * hostile message costs the same as a large honest one.
 */

/** Bytes of the message handed to the MIME parser: above the intake's default limit (10 MB, INTAKE_MAX_MESSAGE_BYTES), a second fence. */
export const MAX_PARSED_BYTES = 12 * 1024 * 1024;
/**
 * MIME parts per message and bytes of one part's header block (mailsplit's own limits are 1,000 and
 * 1 MB): real mail has a few dozen parts and headers of some kilobytes, and nesting costs the parser
 * more than linear time, so a message beyond these is refused rather than read.
 */
export const MAX_MIME_PARTS = 256;
export const MAX_HEAD_BYTES = 512 * 1024;
/** Characters of HTML walked for links, images and words (~2 MB). */
export const MAX_HTML_CHARS = 2 * 1024 * 1024;
/** Characters kept of one header value: RFC 5322 §2.1.1 limits a line to 998, a folded value may span more. */
export const MAX_HEADER_VALUE_CHARS = 4096;
/** Characters of the text part searched for links when there is no HTML part. */
const MAX_TEXT_CHARS = 1024 * 1024;

/** One header field as it appeared: lower-case name, value unfolded and capped. */
export interface HeaderField {
  name: string;
  value: string;
}

export interface ParsedMessage {
  sizeBytes: number;
  headers: HeaderField[];
  /** Mailboxes of the From fields (groups flattened), as mailparser decoded them. */
  fromMailboxes: Array<{ address: string; name: string }>;
  replyTo: Array<{ address: string; name: string }>;
  hasTextPart: boolean;
  hasHtmlPart: boolean;
  /** Bytes of the HTML part (UTF-8), uncapped: Gmail clips by this. */
  htmlBytes: number;
  /** The HTML part's links, images and words (empty when there is none). */
  html: HtmlWalk;
  /** http(s) URLs written in the text part, when there is no HTML part to take links from. */
  textLinks: string[];
}

/** The message could not be read as MIME at all (mailsplit's own limits included); permanent for this message. */
export class UnreadableMessageError extends Error {
  override name = 'UnreadableMessageError';
}

const FOLDING = /\r?\n[ \t]/g;
// A URL in plain text: scheme, then anything up to a blank or a delimiter a writer puts around a URL.
const TEXT_URL = /https?:\/\/[^\s<>"')\]]+/gi;

/** Parses the raw message: MIME with mailparser (no HTML-to-text or linkify work), then the HTML with htmlparser2. */
export async function parseMessage(raw: Buffer): Promise<ParsedMessage> {
  let mail: ParsedMail;
  try {
    mail = await simpleParser(raw.length > MAX_PARSED_BYTES ? raw.subarray(0, MAX_PARSED_BYTES) : raw, {
      // Passed on to mailsplit's Splitter; not in @types/mailparser's options.
      ...{ maxChildNodes: MAX_MIME_PARTS, maxHeadSize: MAX_HEAD_BYTES },
      skipHtmlToText: true,
      skipTextToHtml: true,
      skipTextLinks: true,
      skipImageLinks: true,
      maxHtmlLengthToParse: MAX_HTML_CHARS,
    });
  } catch (error) {
    throw new UnreadableMessageError(`the message is not readable MIME (${error instanceof Error ? error.message.slice(0, 200) : 'parse error'})`, { cause: error });
  }
  return readParsedMail(mail, raw.length);
}

/** The synchronous half: what the analysis reads of mailparser's result, every piece capped. */
export function readParsedMail(mail: ParsedMail, sizeBytes: number): ParsedMessage {
  const html = typeof mail.html === 'string' ? mail.html : '';
  const text = mail.text ?? '';
  return {
    sizeBytes,
    headers: (mail.headerLines ?? []).map(({ key, line }) => ({ name: key.toLowerCase(), value: headerValue(line) })),
    fromMailboxes: mailboxesOf(mail.from),
    replyTo: mailboxesOf(mail.replyTo),
    hasTextPart: text.trim() !== '',
    hasHtmlPart: html.trim() !== '',
    htmlBytes: Buffer.byteLength(html),
    html: walkHtml(html.length > MAX_HTML_CHARS ? html.slice(0, MAX_HTML_CHARS) : html),
    textLinks: html === '' ? textLinksOf(text) : [],
  };
}

/** The value of a raw `Name: value` line, capped before it is unfolded (RFC 5322 §2.2.3). */
function headerValue(line: string): string {
  const colon = line.indexOf(':');
  return line
    .slice(colon + 1, colon + 1 + MAX_HEADER_VALUE_CHARS)
    .replace(FOLDING, ' ')
    .trim();
}

function mailboxesOf(field: AddressObject | AddressObject[] | undefined): Array<{ address: string; name: string }> {
  if (field === undefined) return [];
  const objects = Array.isArray(field) ? field : [field];
  const flatten = (list: EmailAddress[]): EmailAddress[] => list.flatMap((entry) => (entry.group ? flatten(entry.group) : [entry]));
  return objects.flatMap((object) => flatten(object.value)).map((entry) => ({ address: (entry.address ?? '').slice(0, 320), name: (entry.name ?? '').slice(0, 200) }));
}

function textLinksOf(text: string): string[] {
  const links: string[] = [];
  for (const match of text.slice(0, MAX_TEXT_CHARS).matchAll(TEXT_URL)) {
    links.push(withoutTrailingPunctuation(match[0].slice(0, MAX_LINK_CHARS)));
    if (links.length >= MAX_LINKS) break;
  }
  return links;
}

const SENTENCE_PUNCTUATION = new Set(['.', ',', ';', ':', '!', '?']);

/** "See https://example.com/news." ends the sentence, not the URL. */
function withoutTrailingPunctuation(url: string): string {
  let end = url.length;
  while (end > 0 && SENTENCE_PUNCTUATION.has(url.charAt(end - 1))) end--;
  return url.slice(0, end);
}

/** The first value of a header field, or null. */
export function headerOf(message: ParsedMessage, name: string): string | null {
  return message.headers.find((field) => field.name === name)?.value ?? null;
}
