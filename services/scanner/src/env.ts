import { baseEnvSchema, envPort, parseEnv, requireProductionSecret } from '@sendwell/server-kit';

const schema = baseEnvSchema.extend({ PORT: envPort(3005) }).superRefine(requireProductionSecret);

export type Env = ReturnType<typeof loadEnv>;

export function loadEnv(source: Record<string, string | undefined> = process.env) {
  return parseEnv('scanner', schema, source);
}
