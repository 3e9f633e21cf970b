import { describe, expect, it } from 'vitest';
import { isDisposableDomain } from './disposable-domains.js';

describe('isDisposableDomain', () => {
  it('finds listed providers and names below them', () => {
    expect(isDisposableDomain('mailinator.com')).toBe(true);
    expect(isDisposableDomain('yopmail.com')).toBe(true);
    expect(isDisposableDomain('inbox.mailinator.com')).toBe(true);
  });
  it('leaves ordinary providers alone', () => {
    expect(isDisposableDomain('gmail.com')).toBe(false);
    expect(isDisposableDomain('example.com')).toBe(false);
    expect(isDisposableDomain('com')).toBe(false);
  });
});
