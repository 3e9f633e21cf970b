import { currencies, monthlyPriceMinor, paidPlans, planRules, type Currency, type PaidPlan } from '@sendwell/contracts';
import type { Logger } from '@sendwell/server-kit';
import Stripe from 'stripe';

/**
 * Products and prices live in Stripe, found by `lookup_key` (and products by a fixed id), never by
 * pasted ids: the same code serves the stand-in, a test-mode account and the live one.
 */
export const productId = (plan: PaidPlan): string => `sendwell_${plan}`;
export const lookupKey = (plan: PaidPlan, currency: Currency): string => `sendwell_${plan}_${currency.toLowerCase()}_monthly`;

const LOOKUP_KEY = /^sendwell_(basic|standard|advanced)_(aud|usd|cad)_monthly$/;

/** The plan and currency a price sells, read from its lookup key; null for a price that is not ours. */
export function planOfPrice(price: Pick<Stripe.Price, 'lookup_key'> | null | undefined): { plan: PaidPlan; currency: Currency } | null {
  const match = LOOKUP_KEY.exec(price?.lookup_key ?? '');
  if (!match) return null;
  return { plan: match[1] as PaidPlan, currency: match[2]!.toUpperCase() as Currency };
}

/** Price ids by lookup key, as they are in Stripe after `syncCatalogue`. */
export type Catalogue = Map<string, string>;

async function ensureProduct(stripe: Stripe, plan: PaidPlan): Promise<void> {
  try {
    await stripe.products.retrieve(productId(plan));
  } catch (error) {
    if (!(error instanceof Stripe.errors.StripeInvalidRequestError) || error.code !== 'resource_missing') throw error;
    await stripe.products.create({ id: productId(plan), name: `Sendwell ${planRules[plan].label}`, metadata: { plan } });
  }
}

/**
 * Makes Stripe hold one monthly price per paid plan and currency at the amounts of the contracts'
 * plan rules: missing products and prices are created; a price whose amount changed gets a new price
 * that takes its lookup key over (Stripe prices are immutable). Safe to run again and again.
 */
export async function syncCatalogue(stripe: Stripe, logger: Logger): Promise<Catalogue> {
  const keys = paidPlans.flatMap((plan) => currencies.map((currency) => ({ plan, currency, key: lookupKey(plan, currency) })));
  const existing = await stripe.prices.list({ lookup_keys: keys.map((k) => k.key), active: true, limit: 100 });
  const byKey = new Map(existing.data.map((p) => [p.lookup_key, p]));
  const catalogue: Catalogue = new Map();
  for (const plan of paidPlans) await ensureProduct(stripe, plan);
  for (const { plan, currency, key } of keys) {
    const amount = monthlyPriceMinor(plan, currency);
    const found = byKey.get(key);
    if (found && found.unit_amount === amount && found.currency === currency.toLowerCase()) {
      catalogue.set(key, found.id);
      continue;
    }
    const created = await stripe.prices.create({
      product: productId(plan),
      currency: currency.toLowerCase(),
      unit_amount: amount,
      recurring: { interval: 'month' },
      lookup_key: key,
      transfer_lookup_key: found !== undefined,
      metadata: { plan, currency },
    });
    logger.info({ lookupKey: key, price: created.id, amount }, found ? 'price changed: new price took the lookup key' : 'price created');
    catalogue.set(key, created.id);
  }
  return catalogue;
}

/**
 * Price ids for the service, looked up by lookup key once and kept. A key Stripe lacks (a fresh
 * account, `pnpm stripe:sync` never run) runs the sync once, so checkout never needs a manual step.
 */
export class PriceBook {
  private prices: Promise<Catalogue> | null = null;

  constructor(
    private readonly stripe: Stripe,
    private readonly logger: Logger,
  ) {}

  async priceId(plan: PaidPlan, currency: Currency): Promise<string> {
    const key = lookupKey(plan, currency);
    this.prices ??= this.load();
    const found = (await this.prices).get(key);
    if (found) return found;
    this.prices = syncCatalogue(this.stripe, this.logger);
    const synced = (await this.prices).get(key);
    if (!synced) throw new Error(`Stripe has no price ${key} after the catalogue sync`);
    return synced;
  }

  private async load(): Promise<Catalogue> {
    const keys = paidPlans.flatMap((plan) => currencies.map((currency) => lookupKey(plan, currency)));
    try {
      const { data } = await this.stripe.prices.list({ lookup_keys: keys, active: true, limit: 100 });
      return new Map(data.flatMap((p) => (p.lookup_key ? [[p.lookup_key, p.id] as const] : [])));
    } catch (error) {
      this.prices = null; // a Stripe outage must not stick: the next call asks again
      throw error;
    }
  }
}
