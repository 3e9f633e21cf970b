import type { CheckDetails, CheckType, DnsSnapshot } from '@sendwell/contracts';
import { CamelCasePlugin, Kysely, PostgresDialect, type ColumnType, type Transaction } from 'kysely';
import pg from 'pg';
import { PoolStats, type DatabaseStats } from './pool-stats.js';
import { PreparingClient } from './prepared-statements.js';
import type * as Generated from './schema.gen.js';

/*
 * The JSON columns one service writes and another reads, typed with the contracts' shapes. The
 * generated schema (verified against a migrated database) only knows `Json`; these narrow what a
 * select returns. Writers still pass JSON text (`JSON.stringify`): pg would send a JS array as a
 * Postgres array. Readers that must not trust old rows parse with the contracts' schemas.
 */
/** Every check's details (loose, every field optional): the row's `type` says which. */
export type StoredCheckDetails = CheckDetails<CheckType>;
type CheckDetailsColumn = ColumnType<StoredCheckDetails, Generated.Json | undefined, Generated.Json>;

export interface CheckResults extends Omit<Generated.CheckResults, 'details'> {
  details: CheckDetailsColumn;
}
export interface SampleDomainChecks extends Omit<Generated.SampleDomainChecks, 'details'> {
  details: CheckDetailsColumn;
}
export interface DnsSnapshots extends Omit<Generated.DnsSnapshots, 'snapshot'> {
  snapshot: ColumnType<DnsSnapshot, Generated.Json, Generated.Json>;
}
export interface DB extends Omit<Generated.DB, 'checkResults' | 'sampleDomainChecks' | 'dnsSnapshots'> {
  checkResults: CheckResults;
  sampleDomainChecks: SampleDomainChecks;
  dnsSnapshots: DnsSnapshots;
}

export type Database = Kysely<DB>;
/** What a repository runs on: the pool or a caller's transaction alike. */
export type Executor = Database | Transaction<DB>;

export interface DbOptions {
  connectionString: string;
  /** Pool size per process; six processes share one server, so keep it modest. */
  max?: number;
  applicationName?: string;
  /**
   * A connection the server ended (a restart, a failover, pg_terminate_backend). The query on it, if
   * any, fails on its own; the pool drops the connection and the next query opens another. For logging.
   */
  onConnectionError?: (error: Error) => void;
}

/**
 * One pool per process. Columns are snake_case in SQL and camelCase in TypeScript. Statements run
 * prepared (`PreparingClient`): a service repeats the same few, and parsing and planning each anew
 * was most of Postgres's CPU on a read.
 */
export function createDb({ connectionString, max = 10, applicationName = 'sendwell', onConnectionError }: DbOptions): Database {
  const pool = new pg.Pool({
    Client: PreparingClient,
    connectionString,
    max,
    application_name: applicationName,
    idleTimeoutMillis: 30_000,
    connectionTimeoutMillis: 5_000,
    // No JIT: Postgres compiles any plan whose estimate passes 100,000, which took 2 s of a 0.2 s read
    // whose estimate was off (the timeline over a year's partitions); a service's statements are short.
    options: '-c jit=off',
  });
  // A connection's 'error' event nobody listens to crashes the whole process (every service did when
  // the chaos bench terminated their sessions). pg-pool listens only while a connection is idle, and
  // re-emits that on the pool; a connection in use (in a transaction, or just after its query failed)
  // needs its own listener.
  pool.on('connect', (client) => client.on('error', (error) => onConnectionError?.(error)));
  pool.on('error', () => undefined); // the connection's own listener above has reported it
  const stats = new PoolStats(pool, max);
  const db = new Kysely<DB>({
    dialect: new PostgresDialect({ pool }),
    plugins: [new CamelCasePlugin()],
    log: (event) => stats.record(event.queryDurationMillis),
  });
  statsByDb.set(db, stats);
  return db;
}

const statsByDb = new WeakMap<Database, PoolStats>();

/** The pool's counters and recent statement times of a database made by `createDb` (null for any other). */
export function databaseStats(db: Database): DatabaseStats | null {
  return statsByDb.get(db)?.read() ?? null;
}

/** True when the server answers; used by start-up checks and health endpoints. */
export async function pingPostgres(connectionString: string, timeoutMs = 2_000): Promise<boolean> {
  const client = new pg.Client({ connectionString, connectionTimeoutMillis: timeoutMs });
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}
