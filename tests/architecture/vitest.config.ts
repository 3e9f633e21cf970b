import { reporters } from '@sendwell/vitest-config';
import { defineConfig } from 'vitest/config';

/** Rules about the code itself (which module writes which table), read from the source files. */
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    environment: 'node',
    reporters,
  },
});
