import { z } from './zod.js';

import { ErrorCode } from './error-codes.js';
export * from './error-codes.js';

export const errorCodeSchema = z.enum(Object.values(ErrorCode) as [ErrorCode, ...ErrorCode[]]);

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
