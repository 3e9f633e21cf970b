import { describe, expect, it } from 'vitest';
import { concatJsonArrays, jsonBytes } from './daily-rows.js';

describe('concatJsonArrays', () => {
  it('joins arrays into one, skipping empty ones, without parsing them', () => {
    const joined = concatJsonArrays([jsonBytes([]), jsonBytes([{ a: 1 }, 'é']), jsonBytes([]), jsonBytes([[2], null])]);
    expect(JSON.parse(joined.toString())).toEqual([{ a: 1 }, 'é', [2], null]);
    expect(concatJsonArrays([jsonBytes([])]).toString()).toBe('[]');
    expect(concatJsonArrays([]).toString()).toBe('[]');
  });

  it('writes JSON bytes in a buffer of their own, so a thread can move it', () => {
    const bytes = jsonBytes({ small: true });
    expect([bytes.byteOffset, bytes.byteLength]).toEqual([0, bytes.buffer.byteLength]);
  });
});
