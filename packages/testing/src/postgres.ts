import { createDb, type Database } from '@sendwell/db';
import { createTestDatabase } from '@sendwell/db/testing';
import { inject } from 'vitest';
import type {} from './provided-context.js';

export interface TestDb {
  url: string;
  db: Database;
  /** Closes the pool and drops the database. */
  close(): Promise<void>;
}

/** A database of its own for one test file, cloned from the migrated template. */
export async function createTestDb(): Promise<TestDb> {
  const database = await createTestDatabase(inject('postgresUrl'));
  const db = createDb({ connectionString: database.url, max: 5, applicationName: 'sendwell-test' });
  return {
    url: database.url,
    db,
    close: async () => {
      await db.destroy();
      await database.drop();
    },
  };
}
