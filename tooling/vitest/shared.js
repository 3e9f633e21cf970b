import { fileURLToPath } from 'node:url';

/**
 * Vitest settings shared by every package. Each run also writes a JSON report that the root
 * `pnpm test` adds up into one closing "N passed, N failed" line (summary.js).
 */
export const reporters = ['default', ['json', { outputFile: '.test-results/vitest.json' }]];

/** Pure unit tests beside the code: no I/O, no setup. */
export const unitTestConfig = {
  include: ['src/**/*.test.ts'],
  reporters,
};

/**
 * Tests against real Postgres and Redis: one global setup (find the servers, migrate the template
 * once), generous timeouts for real I/O, and files in parallel because each has its own database
 * and Redis prefix.
 */
export const globalSetup = fileURLToPath(new URL('../../packages/testing/src/global-setup.ts', import.meta.url));

export const mediumTestConfig = {
  globalSetup: [globalSetup],
  include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
  testTimeout: 20_000,
  hookTimeout: 30_000,
  pool: 'forks',
  reporters,
};
