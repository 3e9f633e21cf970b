import type { Stripe } from '@stripe/stripe-js';
import { useMemo } from 'react';
// The `pure` entry loads Stripe.js only when asked: the plain one injects it on import, on every page.
import { loadStripe } from '@stripe/stripe-js/pure';
import { useBillingConfig } from '../api/billing';

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

/** Stripe.js for this deployment's publishable key (GET /api/billing/config); null until the key is known. */
export function useStripeJs(): { stripe: Promise<Stripe | null> | null; failed: boolean } {
  const config = useBillingConfig();
  const publishableKey = config.data?.publishableKey;
  const stripe = useMemo(() => (publishableKey ? stripeFor(publishableKey) : null), [publishableKey]);
  return { stripe, failed: config.isError };
}
