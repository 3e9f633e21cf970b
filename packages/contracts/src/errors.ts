import { z } from './zod.js';

/** Every error a service answers with carries one of these codes; the status follows from the code. */
export const ErrorCode = {
  ValidationFailed: 'VALIDATION_FAILED',
  Unauthorized: 'UNAUTHORIZED',
  Forbidden: 'FORBIDDEN',
  NotFound: 'NOT_FOUND',
  Conflict: 'CONFLICT',
  PlanLimit: 'PLAN_LIMIT',
  /** The card was declined or needs the customer (Stripe's card errors). */
  PaymentFailed: 'PAYMENT_FAILED',
  RateLimited: 'RATE_LIMITED',
  PayloadTooLarge: 'PAYLOAD_TOO_LARGE',
  UpstreamUnavailable: 'UPSTREAM_UNAVAILABLE',
  Internal: 'INTERNAL',
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];
export const errorCodeSchema = z.enum(Object.values(ErrorCode) as [ErrorCode, ...ErrorCode[]]);

export const errorStatus: Record<ErrorCode, number> = {
  VALIDATION_FAILED: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  PLAN_LIMIT: 403,
  PAYMENT_FAILED: 402,
  RATE_LIMITED: 429,
  PAYLOAD_TOO_LARGE: 413,
  UPSTREAM_UNAVAILABLE: 503,
  INTERNAL: 500,
};

/**
 * The body of every error answer. `message` is safe to show to the user (the spec's exact texts);
 * the few flags the web app reads on an error (part 1 §8) are top-level so the client need not dig.
 */
export const apiErrorSchema = z.object({
  code: errorCodeSchema,
  message: z.string(),
  requestId: z.string().optional(),
  details: z.record(z.string(), z.unknown()).optional(),
  /** Add domain over the free limit: the client shows the upgrade path. */
  requiresUpgrade: z.boolean().optional(),
  /** Settings save refused because the currency is locked after payment. */
  currencyLocked: z.boolean().optional(),
  /** Rate limits and manual-scan cooldowns: seconds until the call may be repeated. */
  retryAfterSeconds: z.number().int().nonnegative().optional(),
});
/** A route's response schemas for the error statuses it can answer (and 500), all in the shape of `ApiError`. */
export function errorResponses<C extends number>(...codes: C[]): Record<C | 500, typeof apiErrorSchema> {
  return Object.fromEntries([...codes, 500].map((code) => [code, apiErrorSchema])) as Record<C | 500, typeof apiErrorSchema>;
}

export type ApiError = z.infer<typeof apiErrorSchema>;
