import { z } from './zod.js';

/** Timestamps travel as ISO-8601 strings. */
export const isoDateTime = z.iso.datetime({ offset: true });

/** Ids are Postgres `integer` columns: a larger value would fail in the query rather than find nothing. */
export const MAX_ID = 2_147_483_647;
const INVALID_ID = 'Invalid id';

/** An id in a JSON body or an answer: a positive integer within Postgres' integer. */
export const idSchema = z.number({ error: INVALID_ID }).int(INVALID_ID).positive(INVALID_ID).max(MAX_ID, INVALID_ID);
/**
 * An id in a path or query string: decimal digits only (no sign, exponent, hex or spaces, which
 * number coercion would take), then the same range as `idSchema`.
 */
export const idParamSchema = z
  .string({ error: INVALID_ID })
  .regex(/^\d+$/, INVALID_ID)
  .transform(Number)
  .pipe(idSchema);

export const okSchema = z.object({ success: z.literal(true), message: z.string().optional() });
export type Ok = z.infer<typeof okSchema>;
