import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/**
 * Browser tests against the whole real stack (e2e/harness/README.md). One global setup starts every
 * service on free ports; files run one at a time because they share that stack and one Chromium each.
 */
export default defineConfig({
  resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) } },
  test: {
    include: ['e2e/**/*.e2e.ts'],
    globalSetup: ['e2e/harness/global-setup.ts'],
    environment: 'node',
    // A whole journey through the real stack (a domain scanned, its page with every section, mail flow
    // included) takes 35–50 s alone and more beside the rest of `pnpm test` on two cores.
    testTimeout: 150_000,
    hookTimeout: 180_000,
    fileParallelism: false,
    // On CI the browser tests share two cores with every other package's tests, and a journey that
    // waits on a scan or a message can miss a 30 s step once; a second failure still fails the run.
    retry: process.env.CI ? 1 : 0,
    // Its own JSON file beside the unit run's; the workspace summary (tooling/vitest/summary.js) reads both.
    reporters: ['default', ['json', { outputFile: '.test-results/vitest-e2e.json' }]],
  },
});
