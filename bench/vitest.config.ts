import { globalSetup, reporters } from '@sendwell/vitest-config';
import { defineConfig } from 'vitest/config';

/**
 * `pnpm test` runs every section of `pnpm bench` in smoke mode (test/smoke.test.ts): tiny sizes, real
 * Postgres and Redis (the global setup finds them and migrates the template once), three sections at a
 * time; no speed goal is judged, so a loaded machine cannot fail it.
 */
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: [globalSetup],
    reporters,
    pool: 'forks',
    maxConcurrency: 3,
    testTimeout: 360_000,
    hookTimeout: 60_000,
  },
});
