import { z } from 'zod';

/** Timestamps travel as ISO-8601 strings. */
export const isoDateTime = z.iso.datetime({ offset: true });
export const idSchema = z.number().int().positive();
/** Route params arrive as strings; ids are positive integers. */
export const idParamSchema = z.coerce.number({ error: 'Invalid id' }).int('Invalid id').positive('Invalid id');
export const okSchema = z.object({ success: z.literal(true), message: z.string().optional() });
export type Ok = z.infer<typeof okSchema>;
