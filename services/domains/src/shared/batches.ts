import { sql, type Expression, type RawBuilder } from 'kysely';

/**
 * Runs `deleteBatch` (one statement deleting at most `batch` rows, returning how many it deleted)
 * until a batch comes back short. Each batch commits on its own, so purging a large backlog never
 * holds many row locks, or blocks other writers, for long. Returns the total deleted.
 */
export async function deleteInBatches(batch: number, deleteBatch: () => Promise<number>): Promise<number> {
  let total = 0;
  for (;;) {
    const deleted = await deleteBatch();
    total += deleted;
    if (deleted < batch) return total;
  }
}

/**
 * `array(<select of ids>)`, for `where id = any(...)`: Postgres computes the batch's ids once (an
 * index range scan under `order by ... limit`) and deletes them by primary key. The obvious
 * `id in (select ... limit n)` is planned as a semi-join that scans the whole table for every batch.
 */
export function idArray<T>(ids: Expression<unknown>): RawBuilder<T[]> {
  return sql<T[]>`array(${ids})`;
}
