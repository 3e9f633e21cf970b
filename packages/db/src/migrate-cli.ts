import { dbEnv } from './env.js';
import { ensureDatabase } from './ensure-database.js';
import { migrateToLatest } from './migrate.js';

await ensureDatabase(dbEnv.DATABASE_URL);
const result = await migrateToLatest(dbEnv.DATABASE_URL);
const applied = result.results?.filter((r) => r.status === 'Success').map((r) => r.migrationName) ?? [];
process.stdout.write(applied.length ? `Applied migrations: ${applied.join(', ')}\n` : 'Database is up to date.\n');
