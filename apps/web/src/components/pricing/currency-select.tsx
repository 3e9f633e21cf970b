import type { Currency } from '@sendwell/contracts';
import { LANDING_CURRENCIES } from '@/lib/currency';
import { useCurrency } from '@/lib/hooks/use-currency';

/**
 * The visitor's currency choice (landing header, plan comparison). Its own component: the currency
 * becomes known after hydration, and only this re-renders then.
 */
export function CurrencySelect() {
  const [currency, setCurrency] = useCurrency();
  return (
    <>
      <label className="sr-only" htmlFor="currency">
        Currency
      </label>
      <select
        id="currency"
        value={currency}
        onChange={(e) => setCurrency(e.target.value as Currency)}
        className="h-9 rounded-md border border-input bg-background px-2 text-sm"
      >
        {LANDING_CURRENCIES.map((c) => (
          <option key={c} value={c}>
            {c}
          </option>
        ))}
      </select>
    </>
  );
}
