import { adversarialInputs, hostileText, withinBudget } from '@sendwell/testing/hostile';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_REPLY_LINE_CHARS, MAX_REPLY_LINES, ReplyReader } from '../src/reply-reader.js';

/**
 * SMTP replies (RFC 5321 §4.2) as the server's bytes arrive, and a hostile server's (issue 24). The
 * property-based run over arbitrary output (fast-check) is the scanner's
 * test/checks/smtp-reply-reader-hostile.test.ts: this package has no fast-check.
 */

const readAll = (chunks: readonly string[]) => {
  const reader = new ReplyReader();
  const replies = [];
  for (const chunk of chunks) {
    const result = reader.read(chunk);
    replies.push(...result.replies);
    if (result.error) return { replies, error: result.error };
  }
  return { replies, error: null };
};

describe('ReplyReader', () => {
  it('collects continuation lines into one reply, across chunks and with LF or CRLF', () => {
    expect(readAll(['220 mx.example.com ESMTP\r\n250-mx.exa', 'mple.com\r\n250-PIPELINING\n250 STARTTLS\r\n', '221'])).toEqual({
      replies: [
        { code: 220, lines: ['mx.example.com ESMTP'] },
        { code: 250, lines: ['mx.example.com', 'PIPELINING', 'STARTTLS'] },
      ],
      error: null,
    });
    expect(readAll(['250\r\n'])).toEqual({ replies: [{ code: 250, lines: [''] }], error: null });
  });

  it('ends the conversation on a line that is not a reply, quoting it safely', () => {
    expect(readAll(['220 ok\r\nHELLO\x07 there\r\n']).error).toBe('the server sent a line that is not an SMTP reply: "HELLO? there"');
  });

  it(`refuses a line longer than ${MAX_REPLY_LINE_CHARS} characters, with or without its newline yet`, () => {
    const long = `250 ${'x'.repeat(MAX_REPLY_LINE_CHARS)}`;
    const message = `the server sent a reply line longer than ${MAX_REPLY_LINE_CHARS} characters (RFC 5321 allows 512)`;
    expect(readAll([`${long}\r\n`]).error).toBe(message);
    expect(readAll([long.slice(0, 100), long.slice(100)]).error).toBe(message);
    expect(readAll([`250 ${'x'.repeat(MAX_REPLY_LINE_CHARS - 4)}\r\n`]).error).toBeNull();
  });

  it(`refuses a reply of more than ${MAX_REPLY_LINES} lines`, () => {
    expect(readAll(['250-x\r\n'.repeat(MAX_REPLY_LINES - 1), '250 x\r\n']).replies[0]?.lines).toHaveLength(MAX_REPLY_LINES);
    expect(readAll(['250-x\r\n'.repeat(MAX_REPLY_LINES + 1)]).error).toBe(`the server sent a reply of more than ${MAX_REPLY_LINES} lines`);
  });

  it('forgets a partial line and pending continuation lines on reset', () => {
    const reader = new ReplyReader();
    reader.read('250-one\r\n250 tw');
    reader.reset();
    expect(reader.read('220 ready\r\n')).toEqual({ replies: [{ code: 220, lines: ['ready'] }], error: null });
  });

  it('reads adversarial server output within the budget, never throwing', () => {
    // A server may stream without end: 64 KB chunks (a socket read) of each shape, eight times over.
    for (const text of adversarialInputs(64 * 1024, ['250-', '250 x\r\n', '\n', '2'])) withinBudget(() => readAll(Array.from({ length: 8 }, () => text)));
  });
});

describe('ReplyReader against hostile server output (issue 24)', () => {
  it('reads arbitrary server output within the budget, never throwing', () => {
    fc.assert(
      fc.property(fc.array(hostileText(['250', '250-', '220 ', '\r\n', '\n', '\r', '999 '], 30), { maxLength: 8 }), (chunks) => {
        const { replies, error } = withinBudget(() => readAll(chunks));
        expect(replies.every((reply) => reply.code >= 0 && reply.code <= 999 && reply.lines.length <= MAX_REPLY_LINES)).toBe(true);
        expect(error === null || error.length > 0).toBe(true);
      }),
      { numRuns: 200 },
    );
  });
});
