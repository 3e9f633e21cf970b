import { z } from '../zod.js';
import { checkStatusSchema, checkTypeSchema } from '../entities/check.js';
import { domainStatusSchema } from '../entities/domain.js';
import { isoDateTime } from '../common.js';
import { domainNameSchema } from '../validation.js';

/** GET /api/sample-domains/{domain}: public, the quick check. */
export const sampleDomainParams = z.object({ domain: domainNameSchema });
export type SampleDomainParams = z.infer<typeof sampleDomainParams>;

export const sampleDomainAnswer = z.object({
  domain: z.object({ name: z.string(), status: domainStatusSchema, lastScan: isoDateTime.nullable() }),
  /** Null while the first scan of this domain runs: each row then reads "Scanning...". */
  checks: z
    .array(
      z.object({
        type: checkTypeSchema,
        status: checkStatusSchema,
        value: z.string().nullable(),
        message: z.string().nullable(),
      }),
    )
    .nullable(),
});
export type SampleDomainAnswer = z.infer<typeof sampleDomainAnswer>;
