import { unitTestConfig } from '@sendwell/vitest-config';
import { defineConfig } from 'vitest/config';

/** The manifests' validation: real overlays must pass, broken ones must fail. No servers needed. */
export default defineConfig({ test: { ...unitTestConfig, include: ['test/**/*.test.ts'], testTimeout: 30_000 } });
