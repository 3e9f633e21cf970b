import type { Currency } from '@sendwell/contracts';
import { useSyncExternalStore } from 'react';
import { currentCurrency, storeCurrencyOverride, subscribeToCurrency } from '@/lib/currency';

/**
 * What prerendered HTML shows, before the visitor is known: detection's own fallback (part 2 §9).
 * Hydration renders with it too, then React re-renders once with this browser's currency.
 */
const PRERENDERED_CURRENCY: Currency = 'AUD';

/** The public pages' currency and the setter of the visitor's choice (kept until a valid landing submission). */
export function useCurrency(): [Currency, (currency: Currency) => void] {
  const currency = useSyncExternalStore(subscribeToCurrency, currentCurrency, () => PRERENDERED_CURRENCY);
  return [currency, storeCurrencyOverride];
}
