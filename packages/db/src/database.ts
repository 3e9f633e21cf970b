import { CamelCasePlugin, Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { DB } from './schema.gen.js';

export type Database = Kysely<DB>;

export interface DbOptions {
  connectionString: string;
  /** Pool size per process; six processes share one server, so keep it modest. */
  max?: number;
  applicationName?: string;
}

/** One pool per process. Columns are snake_case in SQL and camelCase in TypeScript. */
export function createDb({ connectionString, max = 10, applicationName = 'sendwell' }: DbOptions): Database {
  const pool = new pg.Pool({
    connectionString,
    max,
    application_name: applicationName,
    idleTimeoutMillis: 30_000,
    connectionTimeoutMillis: 5_000,
  });
  return new Kysely<DB>({ dialect: new PostgresDialect({ pool }), plugins: [new CamelCasePlugin()] });
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
