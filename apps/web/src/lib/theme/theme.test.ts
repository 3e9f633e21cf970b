import { describe, expect, it } from 'vitest';
import { readTheme, resolveTheme } from './theme';

describe('theme', () => {
  it('defaults to system and ignores unknown values', () => {
    expect(readTheme()).toBe('system');
    localStorage.setItem('theme', 'sepia');
    expect(readTheme()).toBe('system');
    localStorage.setItem('theme', 'dark');
    expect(readTheme()).toBe('dark');
  });
  it('resolves system from the media preference', () => {
    expect(resolveTheme('system', true)).toBe('dark');
    expect(resolveTheme('system', false)).toBe('light');
    expect(resolveTheme('light', true)).toBe('light');
  });
});
