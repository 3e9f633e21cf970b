import { z } from '../zod.js';
import { idSchema, isoDateTime } from '../common.js';
import { checkStatusSchema, checkTypeSchema } from './check.js';
import { domainStatusSchema } from './domain.js';

/** A domain scanned for the public quick check; not owned by anyone. */
export const sampleDomainSchema = z.object({
  id: idSchema,
  name: z.string(),
  status: domainStatusSchema,
  lastScan: isoDateTime.nullable(),
  scanCount: z.number().int().nonnegative(),
  createdAt: isoDateTime,
  updatedAt: isoDateTime,
});
export type SampleDomain = z.infer<typeof sampleDomainSchema>;

export const sampleDomainCheckSchema = z.object({
  id: idSchema,
  sampleDomainId: idSchema,
  type: checkTypeSchema,
  status: checkStatusSchema,
  details: z.record(z.string(), z.unknown()),
  value: z.string().nullable(),
  message: z.string().nullable(),
  createdAt: isoDateTime,
});
export type SampleDomainCheck = z.infer<typeof sampleDomainCheckSchema>;
