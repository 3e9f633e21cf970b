export {
  createDb,
  databaseStats,
  pingPostgres,
  type Database,
  type Executor,
  type DbOptions,
  type DB,
  type CheckResults,
  type DnsSnapshots,
  type SampleDomainChecks,
  type StoredCheckDetails,
} from './database.js';
export { migrateToLatest, migrationNames } from './migrate.js';
export { migrations } from './migrations/index.js';
export { SLOW_QUERY_MS, type DatabaseStats } from './pool-stats.js';
export { ensureDatabase } from './ensure-database.js';
export { withUserLimitLock, type UserLimit } from './user-limit-lock.js';
export type * from './schema.gen.js';
export { sql, type Selectable, type Insertable, type Updateable, type Transaction, type Kysely } from 'kysely';
