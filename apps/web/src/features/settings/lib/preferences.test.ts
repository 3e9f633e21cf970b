import { describe, expect, it } from 'vitest';
import { isAlreadySet, preferenceDefaults, preferencesToSend } from './preferences';

describe("'Already set' rules", () => {
  it('sends all three for a user still on the defaults', () => {
    expect(preferencesToSend(preferenceDefaults, preferenceDefaults, false)).toEqual({ timezone: 'UTC', dateFormat: 'MM/dd/yyyy', currency: 'AUD' });
  });

  it('does not re-send values that differ from the defaults and are unchanged', () => {
    const stored = { timezone: 'Australia/Sydney', dateFormat: 'dd/MM/yyyy', currency: 'USD' };
    for (const field of ['timezone', 'dateFormat', 'currency'] as const) expect(isAlreadySet(field, stored, stored)).toBe(true);
    expect(preferencesToSend(stored, stored, false)).toEqual({});
  });

  it('sends a changed value even when the stored one was already set', () => {
    const stored = { timezone: 'Australia/Sydney', dateFormat: 'MM/dd/yyyy', currency: 'AUD' };
    const form = { ...stored, timezone: 'Europe/Paris' };
    expect(isAlreadySet('timezone', stored, form)).toBe(false);
    expect(preferencesToSend(stored, form, false)).toEqual({ timezone: 'Europe/Paris', dateFormat: 'MM/dd/yyyy', currency: 'AUD' });
  });

  it('treats UTC, MM/dd/yyyy and AUD as not set', () => {
    const stored = { timezone: 'UTC', dateFormat: 'yyyy-MM-dd', currency: 'AUD' };
    expect(isAlreadySet('timezone', stored, stored)).toBe(false);
    expect(isAlreadySet('dateFormat', stored, stored)).toBe(true);
    expect(isAlreadySet('currency', stored, stored)).toBe(false);
  });

  it('never sends the currency while it is locked', () => {
    expect(preferencesToSend(preferenceDefaults, { ...preferenceDefaults, currency: 'CAD' }, true)).toEqual({ timezone: 'UTC', dateFormat: 'MM/dd/yyyy' });
  });
});
