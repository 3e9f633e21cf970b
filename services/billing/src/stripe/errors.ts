import { CARD_DECLINED_MESSAGE, PAYMENTS_UNAVAILABLE_MESSAGE } from '@sendwell/contracts';
import { notFound, paymentFailed, upstreamUnavailable, type AppError } from '@sendwell/server-kit';
import Stripe from 'stripe';

/**
 * What a Stripe failure means to the user: a card error is theirs to fix (402 with Stripe's own text,
 * which is written for customers); Stripe unreachable or failing is ours (503, try again). Anything
 * else (an invalid request) is a fault of this service and stays an error to log.
 */
export function stripeFailure(error: unknown): AppError | null {
  if (error instanceof Stripe.errors.StripeCardError) return paymentFailed(error.message || CARD_DECLINED_MESSAGE);
  if (
    error instanceof Stripe.errors.StripeConnectionError ||
    error instanceof Stripe.errors.StripeAPIError ||
    error instanceof Stripe.errors.StripeRateLimitError
  ) {
    return upstreamUnavailable(PAYMENTS_UNAVAILABLE_MESSAGE, error);
  }
  return null;
}

/** Runs a Stripe call, turning its failures into the answers above. */
export async function withStripe<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw stripeFailure(error) ?? error;
  }
}

export const isMissing = (error: unknown): boolean =>
  error instanceof Stripe.errors.StripeInvalidRequestError && error.code === 'resource_missing';

/** A Stripe object by id, or the 404 `notFoundMessage` when Stripe has none by that id. */
export async function retrieveOr404<T>(retrieve: () => Promise<T>, notFoundMessage: string): Promise<T> {
  try {
    return await withStripe(retrieve);
  } catch (error) {
    throw isMissing(error) ? notFound(notFoundMessage) : error;
  }
}
