import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { dbEnv } from './env.js';
import { createTestDatabase } from './testing/template-db.js';

/**
 * Regenerates src/schema.gen.ts from a freshly migrated database (kysely-codegen), or with
 * --verify fails when the committed file differs: the hand-written migrations stay the one truth.
 */
const verify = process.argv.includes('--verify');
const outFile = fileURLToPath(new URL('./schema.gen.ts', import.meta.url));
const database = await createTestDatabase(dbEnv.DATABASE_URL);
try {
  execFileSync(
    'kysely-codegen',
    ['--dialect', 'postgres', '--camel-case', '--url', database.url, '--out-file', outFile, ...(verify ? ['--verify'] : [])],
    { stdio: 'inherit' },
  );
} finally {
  await database.drop();
}
