import { globalSetup, unitTestConfig } from '@sendwell/vitest-config';
import { defineConfig } from 'vitest/config';

/**
 * Tests of the start script: its pure parts, the supervisor with real child processes (lib/fixtures),
 * and the compiled services against real Postgres and Redis (the global setup finds them).
 */
export default defineConfig({ test: { ...unitTestConfig, include: ['lib/**/*.test.ts'], globalSetup: [globalSetup] } });
