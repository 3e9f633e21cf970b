import { unitTestConfig } from '@sendwell/vitest-config';
import { defineConfig } from 'vitest/config';

/** The manifests' validation: real overlays must pass, broken ones must fail. No servers needed. Each broken copy runs validate.ts (two kustomize renders), 15–30 s on a loaded machine. */
export default defineConfig({ test: { ...unitTestConfig, include: ['test/**/*.test.ts'], testTimeout: 60_000 } });
