import type { Database, DB, Transaction } from '@sendwell/db';

/** Repositories run on the pool or inside a caller's transaction alike. */
export type Executor = Database | Transaction<DB>;

/** Ids are Postgres `integer`s: a larger number from a URL can match nothing (and must not reach SQL). */
export const MAX_ID = 2_147_483_647;
export const isStoredId = (id: number): boolean => Number.isSafeInteger(id) && id > 0 && id <= MAX_ID;
