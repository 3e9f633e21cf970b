import type { Migration } from 'kysely';
import * as initial from './2026-11-21T00-00_initial.js';

/** Listed explicitly (not read from disk) so migrations run the same from source, a bundle or a container. */
export const migrations: Record<string, Migration> = {
  '2026-11-21T00-00_initial': initial,
};
