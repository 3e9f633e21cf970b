import { MAX_REPLY_LINES, ReplyReader } from '../src/reply-reader.js';
import { hostileText, withinBudget } from '@sendwell/testing/hostile';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

/** The reply reader against arbitrary hostile server output (issue 24); reply-reader.test.ts has the named cases. */

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
