import { apiErrorSchema } from '@sendwell/contracts';

/** Response schemas of the error statuses a route can answer, all in the shape of `ApiError`. */
export function errorResponses<C extends number>(...codes: C[]): Record<C | 500, typeof apiErrorSchema> {
  return Object.fromEntries([...codes, 500].map((code) => [code, apiErrorSchema])) as Record<C | 500, typeof apiErrorSchema>;
}
