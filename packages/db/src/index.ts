export { createDb, pingPostgres, type Database, type DbOptions } from './database.js';
export { migrateToLatest, migrationNames } from './migrate.js';
export { ensureDatabase } from './ensure-database.js';
export type * from './schema.gen.js';
export { sql, type Selectable, type Insertable, type Updateable, type Transaction, type Kysely } from 'kysely';
