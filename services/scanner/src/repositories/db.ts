import type { Database, DB, Transaction } from '@sendwell/db';

/** Repositories run on the pool or inside a caller's transaction alike. */
export type Executor = Database | Transaction<DB>;
