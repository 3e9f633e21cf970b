import { describe, expect, it } from 'vitest';
import { detectCurrency, readCurrencyOverride, storeCurrencyOverride } from './currency';

describe('currency detection', () => {
  it('reads Canada from the locale or the timezone', () => {
    expect(detectCurrency({ locales: ['en-CA'], timeZone: 'Europe/London' })).toBe('CAD');
    expect(detectCurrency({ locales: ['fr'], timeZone: 'America/Toronto' })).toBe('CAD');
  });
  it('reads the US from the locale or the timezone', () => {
    expect(detectCurrency({ locales: ['en-US'], timeZone: 'UTC' })).toBe('USD');
    expect(detectCurrency({ locales: ['es'], timeZone: 'America/Chicago' })).toBe('USD');
    expect(detectCurrency({ locales: ['en'], timeZone: 'America/Indiana/Indianapolis' })).toBe('USD');
  });
  it('defaults to AUD', () => {
    expect(detectCurrency({ locales: ['en-AU'], timeZone: 'Australia/Sydney' })).toBe('AUD');
    expect(detectCurrency({ locales: ['de-DE'], timeZone: 'Europe/Berlin' })).toBe('AUD');
  });
  it('keeps a valid manual override only', () => {
    storeCurrencyOverride('USD');
    expect(readCurrencyOverride()).toBe('USD');
    localStorage.setItem('currencyOverride', 'EUR');
    expect(readCurrencyOverride()).toBeNull();
  });
});
