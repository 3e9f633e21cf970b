import { baseEnvSchema, envPort, parseEnv, requireProductionSettings } from '@sendwell/server-kit';

const schema = baseEnvSchema.extend({ PORT: envPort(3004) }).superRefine(requireProductionSettings);

export type Env = ReturnType<typeof loadEnv>;

export function loadEnv(source: Record<string, string | undefined> = process.env) {
  return parseEnv('reports', schema, source);
}
