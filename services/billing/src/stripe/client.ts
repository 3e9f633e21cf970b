import Stripe from 'stripe';

/** The API version the installed `stripe` package speaks; the stand-in answers in the same one. */
export const STRIPE_API_VERSION = '2026-10-28.endive' as const;

/** One Stripe client for the service, pointed at Stripe's API or the stand-in (STRIPE_API_URL). */
export function createStripe(secretKey: string, apiUrl: string): Stripe {
  const url = new URL(apiUrl);
  const protocol = url.protocol === 'http:' ? 'http' : 'https';
  return new Stripe(secretKey, {
    apiVersion: STRIPE_API_VERSION,
    host: url.hostname,
    port: url.port ? Number(url.port) : protocol === 'http' ? 80 : 443,
    protocol,
    // Retries carry Stripe's idempotency keys, so a retried create never makes a second object.
    maxNetworkRetries: 2,
    timeout: 20_000,
    appInfo: { name: 'Sendwell' },
  });
}
