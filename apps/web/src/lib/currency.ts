import type { Currency } from '@sendwell/contracts';
import { storageKeys } from '@/config/storage-keys';

/**
 * The landing page may not load the contracts (and zod) before its pricing section is needed (bundle
 * budget), so the header keeps the currency codes here, checked against the contracts' type: the
 * compile fails if a currency is added there and not here.
 */
export const LANDING_CURRENCIES = ['AUD', 'USD', 'CAD'] as const satisfies readonly Currency[];
type MissingCurrency = Exclude<Currency, (typeof LANDING_CURRENCIES)[number]>;
const _everyCurrency: MissingCurrency extends never ? true : never = true;
void _everyCurrency;

const CANADIAN_ZONES = new Set([
  'America/Toronto', 'America/Montreal', 'America/Vancouver', 'America/Edmonton', 'America/Winnipeg', 'America/Regina',
  'America/Halifax', 'America/St_Johns', 'America/Moncton', 'America/Glace_Bay', 'America/Goose_Bay', 'America/Whitehorse',
  'America/Dawson', 'America/Dawson_Creek', 'America/Creston', 'America/Fort_Nelson', 'America/Yellowknife', 'America/Inuvik',
  'America/Iqaluit', 'America/Rankin_Inlet', 'America/Resolute', 'America/Cambridge_Bay', 'America/Swift_Current',
  'America/Atikokan', 'America/Blanc-Sablon', 'America/Nipigon', 'America/Thunder_Bay', 'America/Rainy_River',
]);

function isUsZone(zone: string): boolean {
  return (
    /^America\/(?:New_York|Chicago|Denver|Los_Angeles|Phoenix|Anchorage|Detroit|Boise|Juneau|Sitka|Yakutat|Nome|Metlakatla|Adak|Menominee)$/.test(zone) ||
    /^America\/(?:Indiana|Kentucky|North_Dakota)\//.test(zone) ||
    zone === 'Pacific/Honolulu' ||
    zone.startsWith('US/')
  );
}

/** CAD from a Canadian locale or timezone, USD from a US one, else AUD (part 2 §9). */
export function detectCurrency({ locales, timeZone }: { locales: readonly string[]; timeZone: string }): Currency {
  const region = (locale: string) => locale.split(/[-_]/)[1]?.toUpperCase();
  if (locales.some((l) => region(l) === 'CA') || CANADIAN_ZONES.has(timeZone)) return 'CAD';
  if (locales.some((l) => region(l) === 'US') || isUsZone(timeZone)) return 'USD';
  return 'AUD';
}

/** Not yet in TypeScript's lib. */
type WithTemporal = typeof globalThis & { Temporal?: { Now: { timeZoneId(): string } } };

/**
 * The browser's time zone. `Intl.DateTimeFormat()` first loads the locale's date data, a ~35 ms task
 * on a desktop (140 ms on a throttled phone) that the landing page paid during hydration; Temporal
 * answers at once where the browser has it.
 */
let timeZone: string | undefined;
function browserTimeZone(): string {
  timeZone ??= (globalThis as WithTemporal).Temporal?.Now.timeZoneId() ?? Intl.DateTimeFormat().resolvedOptions().timeZone ?? '';
  return timeZone;
}

/** Detection from this browser's languages and time zone. */
export function browserCurrency(): Currency {
  const locales = navigator.languages?.length ? navigator.languages : [navigator.language];
  return detectCurrency({ locales, timeZone: browserTimeZone() });
}

/** A manual choice wins over detection until a valid landing submission removes it. */
export function readCurrencyOverride(): Currency | null {
  const value = localStorage.getItem(storageKeys.currencyOverride);
  return (LANDING_CURRENCIES as readonly string[]).includes(value ?? '') ? (value as Currency) : null;
}

export function storeCurrencyOverride(currency: Currency): void {
  localStorage.setItem(storageKeys.currencyOverride, currency);
  notify();
}

export function clearCurrencyOverride(): void {
  localStorage.removeItem(storageKeys.currencyOverride);
  notify();
}

/** The currency the page shows: the visitor's choice, else detection. */
export const currentCurrency = (): Currency => readCurrencyOverride() ?? browserCurrency();

const listeners = new Set<() => void>();
const notify = () => listeners.forEach((listener) => listener());

/** Calls `listener` when the choice changes here or in another tab. */
export function subscribeToCurrency(listener: () => void): () => void {
  listeners.add(listener);
  window.addEventListener('storage', listener);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', listener);
  };
}
