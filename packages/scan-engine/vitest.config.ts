import { mediumTestConfig } from '@sendwell/vitest-config';
import { defineConfig } from 'vitest/config';

export default defineConfig({ test: mediumTestConfig });
