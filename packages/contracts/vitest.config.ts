import { unitTestConfig } from '@sendwell/vitest-config';
import { defineConfig } from 'vitest/config';

export default defineConfig({ test: unitTestConfig });
