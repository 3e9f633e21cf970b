import { z } from 'zod';

/** Settings of the database package's own commands (migrate, codegen). */
export const dbEnv = z
  .object({ DATABASE_URL: z.string().url().default('postgres://postgres@127.0.0.1:5432/sendwell') })
  .parse(process.env);
