import { baseEnvSchema, envBoolean, envPort, mailEnvFields, parseEnv, requireProductionSettings, requireSmtpInProduction } from '@sendwell/server-kit';
import { z } from 'zod';

const schema = baseEnvSchema
  .extend({
    PORT: envPort(3004),
    ...mailEnvFields,
    /** Run the `report` queue's worker (generation and the automated schedule) in this process. */
    REPORT_WORKER: envBoolean.default(true),
    /**
     * Reports built at once per process. Building is mostly CPU (the PDF), so about one per core; more
     * only overlaps the database reads.
     */
    REPORT_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(2),
  })
  .superRefine(requireProductionSettings)
  .superRefine(requireSmtpInProduction);

export type Env = ReturnType<typeof loadEnv>;

export function loadEnv(source: Record<string, string | undefined> = process.env) {
  return parseEnv('reports', schema, source);
}
