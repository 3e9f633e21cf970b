import { defaultCurrency, DEFAULT_DATE_FORMAT, DEFAULT_TIMEZONE, type User } from '@sendwell/contracts';

export type PreferenceField = 'timezone' | 'dateFormat' | 'currency';
export type Preferences = Record<PreferenceField, string>;

/** The values a new user record carries; anything else was chosen by the user (part 1 §2 Settings). */
export const preferenceDefaults: Preferences = { timezone: DEFAULT_TIMEZONE, dateFormat: DEFAULT_DATE_FORMAT, currency: defaultCurrency };

export function storedPreferences(user: Pick<User, PreferenceField>): Preferences {
  return { timezone: user.timezone, dateFormat: user.dateFormat, currency: user.currency };
}

/**
 * 'Already set': the stored value is not the default (timezone other than UTC, date format other than
 * MM/dd/yyyy, currency other than AUD) and the form still holds it, so Save does not re-send it.
 */
export function isAlreadySet(field: PreferenceField, stored: Preferences, form: Preferences): boolean {
  return stored[field] !== preferenceDefaults[field] && form[field] === stored[field];
}

/**
 * The PUTs a Save sends: every field not 'Already set'; the currency never while it is locked
 * (the server would refuse it, part 1 §4).
 */
export function preferencesToSend(stored: Preferences, form: Preferences, currencyLocked: boolean): Partial<Preferences> {
  const out: Partial<Preferences> = {};
  for (const field of ['timezone', 'dateFormat', 'currency'] as const) {
    if (isAlreadySet(field, stored, form)) continue;
    if (field === 'currency' && currencyLocked) continue;
    out[field] = form[field];
  }
  return out;
}
