import { fileURLToPath } from 'node:url';

/**
 * Vitest settings of every package with tests against real Postgres and Redis: one global setup
 * (find the servers, migrate the template once), generous timeouts for real I/O, and files in
 * parallel because each has its own database and Redis prefix.
 */
export const globalSetup = fileURLToPath(new URL('../../packages/testing/src/global-setup.ts', import.meta.url));

export const mediumTestConfig = {
  globalSetup: [globalSetup],
  include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
  testTimeout: 20_000,
  hookTimeout: 30_000,
  pool: 'forks',
};
