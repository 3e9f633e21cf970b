import type { Stripe } from '@stripe/stripe-js';
// The `pure` entry loads Stripe.js only when asked: the plain one injects it on import, on every page.
import { loadStripe } from '@stripe/stripe-js/pure';

const loaded = new Map<string, Promise<Stripe | null>>();

/** Stripe.js for a publishable key, loaded once per key. */
export function stripeFor(publishableKey: string): Promise<Stripe | null> {
  let stripe = loaded.get(publishableKey);
  if (!stripe) {
    stripe = loadStripe(publishableKey);
    // A failed load (offline) must not stick: the next dialog tries again.
    stripe.catch(() => loaded.delete(publishableKey));
    loaded.set(publishableKey, stripe);
  }
  return stripe;
}

/** Where Stripe sends the customer back after a payment that needs a redirect (part 2 §7). */
export const confirmationUrl = (): string => `${window.location.origin}/subscription/confirmation`;
