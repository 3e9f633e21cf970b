/**
 * Raw RFC 5322 messages for the mail-test tests, written by hand (the scanner has no mail composer).
 * Every header defaults to a well-formed value; `null` leaves it out.
 */
export interface MessageSpec {
  from?: string | null;
  to?: string;
  subject?: string | null;
  date?: string | null;
  messageId?: string | null;
  /** Further header fields, in order, as written (a repeated name is written twice). */
  headers?: Array<[string, string]>;
  text?: string | null;
  html?: string | null;
}

export const SENT_AT = new Date('2026-11-27T09:30:00Z');

export function buildMessage(spec: MessageSpec = {}): Buffer {
  const fields: Array<[string, string | null | undefined]> = [
    ['From', spec.from === undefined ? 'Example News <news@example.com>' : spec.from],
    ['To', spec.to ?? 'test-abcdefghijklmnopqrstuvwx@intake.sendwell.test'],
    ['Subject', spec.subject === undefined ? 'Our November news' : spec.subject],
    ['Date', spec.date === undefined ? SENT_AT.toUTCString().replace('GMT', '+0000') : spec.date],
    ['Message-ID', spec.messageId === undefined ? '<20261127093000.abc123@example.com>' : spec.messageId],
    ['MIME-Version', '1.0'],
    ...(spec.headers ?? []),
  ];
  const head = fields.flatMap(([name, value]) => (value === null || value === undefined ? [] : [`${name}: ${value}`]));
  const text = spec.text === undefined ? 'Hello,\r\nhere is our news of the month.\r\n' : spec.text;
  const html = spec.html ?? null;
  const parts: Array<[string, string]> = [];
  if (text !== null) parts.push(['text/plain; charset=utf-8', text]);
  if (html !== null) parts.push(['text/html; charset=utf-8', html]);
  let body: string;
  if (parts.length === 2) {
    const boundary = 'alt-boundary-7f3a';
    head.push(`Content-Type: multipart/alternative; boundary="${boundary}"`);
    body = parts.map(([type, content]) => `--${boundary}\r\nContent-Type: ${type}\r\nContent-Transfer-Encoding: 8bit\r\n\r\n${content}\r\n`).join('') + `--${boundary}--\r\n`;
  } else {
    const [type, content] = parts[0] ?? ['text/plain; charset=utf-8', ''];
    head.push(`Content-Type: ${type}`, 'Content-Transfer-Encoding: 8bit');
    body = content;
  }
  return Buffer.from(`${head.join('\r\n')}\r\n\r\n${body}`, 'utf8');
}

/** The unsubscribe headers a bulk sender should carry (RFC 2369, RFC 8058). */
export const ONE_CLICK_HEADERS: Array<[string, string]> = [
  ['List-Unsubscribe', '<mailto:unsubscribe@example.com?subject=unsubscribe>, <https://example.com/unsubscribe/t0k3n>'],
  ['List-Unsubscribe-Post', 'List-Unsubscribe=One-Click'],
];

/** A message of `depth` multipart/mixed parts, each inside the one before, with a text part at the bottom. */
export function nestedMultipart(depth: number): Buffer {
  let body = '';
  for (let i = 0; i < depth; i++) body += `Content-Type: multipart/mixed; boundary="b${i}"\r\n\r\n--b${i}\r\n`;
  body += 'Content-Type: text/plain\r\n\r\ndeep inside\r\n';
  for (let i = depth - 1; i >= 0; i--) body += `--b${i}--\r\n`;
  return Buffer.from(`From: a@example.com\r\nSubject: nested\r\nMIME-Version: 1.0\r\n${body}`);
}
