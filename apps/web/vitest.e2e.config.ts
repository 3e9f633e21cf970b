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
    testTimeout: 60_000,
    hookTimeout: 180_000,
    fileParallelism: false,
    // Its own JSON file; scripts/merge-test-results.ts folds it into vitest.json for the workspace summary.
    reporters: ['default', ['json', { outputFile: '.test-results/vitest-e2e.json' }]],
  },
});
