/**
 * Custom webhooks (advanced): Sendwell POSTs a JSON event to the endpoint for every alert raised or
 * resolved, signed like Stripe's webhooks so the receiver can check it came from us and is fresh.
 *
 *   Sendwell-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>" with the endpoint's secret>
 *
 * The secret (`whsec_…`) is shown once, when the endpoint is created. A delivery is retried with
 * exponential backoff for 24 hours until the endpoint answers 2xx; every attempt of one event carries
 * the same `id` (and `Idempotency-Key` header), so a receiver that saw it already can ignore it.
 */
export const WEBHOOK_SIGNATURE_HEADER = 'Sendwell-Signature';
export const WEBHOOK_API_VERSION = '2026-11-24';
/** A receiver should refuse a signature older than this (replay protection). */
export const WEBHOOK_TOLERANCE_SECONDS = 300;
export const MAX_WEBHOOKS_PER_USER = 10;
