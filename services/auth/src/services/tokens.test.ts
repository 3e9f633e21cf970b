import { describe, expect, it } from 'vitest';
import { hashLinkToken, newLinkToken } from './tokens.js';

describe('link tokens', () => {
  it('are random, URL-safe and stored only as their SHA-256', () => {
    const a = newLinkToken();
    const b = newLinkToken();
    expect(a.token).not.toBe(b.token);
    expect(a.token).toMatch(/^[\w-]{43}$/);
    expect(a.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(a.hash).toBe(hashLinkToken(a.token));
    expect(a.hash).not.toContain(a.token);
  });
});
