import { reporters } from '@sendwell/vitest-config';
import { defineConfig } from 'vitest/config';

/**
 * Malformed input for every API call, sent through the gateway to the whole real stack (README.md).
 * One global setup starts the stack; files run one after another because they share it.
 */
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    environment: 'node',
    testTimeout: 120_000,
    hookTimeout: 180_000,
    fileParallelism: false,
    reporters,
  },
});
