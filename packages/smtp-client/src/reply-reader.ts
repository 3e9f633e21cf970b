/**
 * SMTP replies read from the server's bytes (RFC 5321 §4.2): "250-…" continuation lines collect
 * until the last line ("250 …" or "250") ends the reply. The server is outside data, so its lines
 * and replies are capped, and a cap that is hit ends the conversation with a protocol error that
 * says which (the SMTP findings quote it).
 */

/** One reply: its code and the text of each line (without "250-" / "250 "). */
export interface SmtpReply {
  code: number;
  lines: string[];
}

/** RFC 5321 §4.5.3.1.5 limits a reply line to 512 octets; 4 KB leaves room for servers that stretch it. */
export const MAX_REPLY_LINE_CHARS = 4096;
/** A long EHLO answer has some 20 lines. */
export const MAX_REPLY_LINES = 200;

const REPLY_LINE = /^(\d{3})([ -]|$)(.*)$/;

export type ReadResult = { replies: SmtpReply[]; error: null } | { replies: SmtpReply[]; error: string };

export class ReplyReader {
  /** The start of a line whose newline has not arrived yet. */
  private partial = '';
  private pending: string[] = [];

  /** Reads one chunk; returns the replies it completed, and the error that ends the conversation, if any. */
  read(chunk: string): ReadResult {
    const text = this.partial + chunk;
    const replies: SmtpReply[] = [];
    let start = 0;
    for (let newline = text.indexOf('\n'); newline >= 0; newline = text.indexOf('\n', start)) {
      const end = newline > start && text.charCodeAt(newline - 1) === 0x0d ? newline - 1 : newline;
      const error = this.line(text.slice(start, end), replies);
      if (error) return { replies, error };
      start = newline + 1;
    }
    this.partial = text.slice(start);
    if (this.partial.length > MAX_REPLY_LINE_CHARS) return { replies, error: overLongLine() };
    return { replies, error: null };
  }

  /** Forgets what was read (after STARTTLS, plaintext that followed the 220 could only be injected). */
  reset(): void {
    this.partial = '';
    this.pending = [];
  }

  private line(line: string, replies: SmtpReply[]): string | null {
    if (line.length > MAX_REPLY_LINE_CHARS) return overLongLine();
    const match = REPLY_LINE.exec(line);
    if (!match) return `the server sent a line that is not an SMTP reply: "${printable(line)}"`;
    this.pending.push(match[3] ?? '');
    if (this.pending.length > MAX_REPLY_LINES) return `the server sent a reply of more than ${MAX_REPLY_LINES} lines`;
    if (match[2] === '-') return null;
    replies.push({ code: Number(match[1]), lines: this.pending });
    this.pending = [];
    return null;
  }
}

function overLongLine(): string {
  return `the server sent a reply line longer than ${MAX_REPLY_LINE_CHARS} characters (RFC 5321 allows 512)`;
}

/** A server's text, safe to show: control characters replaced, at most 200 characters. */
export function printable(text: string): string {
  let clean = '';
  for (const char of text.slice(0, 201)) {
    const code = char.charCodeAt(0);
    clean += code < 0x20 || (code >= 0x7f && code <= 0x9f) ? '?' : char;
  }
  return clean.length > 200 ? `${clean.slice(0, 200)}…` : clean;
}
