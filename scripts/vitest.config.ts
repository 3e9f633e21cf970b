import { unitTestConfig } from '@sendwell/vitest-config';
import { defineConfig } from 'vitest/config';

/** Unit tests of the start script's pure parts (no I/O). */
export default defineConfig({ test: { ...unitTestConfig, include: ['lib/**/*.test.ts'] } });
