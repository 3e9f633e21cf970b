import { Kysely, Migrator, PostgresDialect, type MigrationResultSet } from 'kysely';
import pg from 'pg';
import { migrations } from './migrations/index.js';

/**
 * Brings the database to the latest migration. Kysely takes a lock, so several processes starting
 * at once migrate once. Migrations use their own untyped connection: they are frozen in time.
 * `through` (a migration's name) stops there: a migration's test lays out the data as it was before it.
 */
export async function migrateToLatest(connectionString: string, options: { through?: string } = {}): Promise<MigrationResultSet> {
  const { through } = options;
  const chosen = through === undefined ? migrations : Object.fromEntries(Object.entries(migrations).filter(([name]) => name <= through));
  const db = new Kysely<unknown>({
    dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString, max: 1 }) }),
  });
  try {
    const migrator = new Migrator({ db, provider: { getMigrations: async () => chosen } });
    const result = await migrator.migrateToLatest();
    if (result.error) {
      const failed = result.results?.find((r) => r.status === 'Error');
      throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${String(result.error)}`, { cause: result.error });
    }
    return result;
  } finally {
    await db.destroy();
  }
}

/** Names of all migrations, for fingerprinting the test template database. */
export const migrationNames = Object.keys(migrations).sort();
